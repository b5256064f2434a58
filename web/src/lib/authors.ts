/** "Ada Lovelace, Charles Babbage et al." — at most `shown` names (a search result, a saved resource). */
export function shortAuthors(authors: string[], shown = 3): string {
  if (authors.length === 0) return 'Unknown authors';
  if (authors.length <= shown) return authors.join(', ');
  return `${authors.slice(0, shown).join(', ')} et al.`;
}
