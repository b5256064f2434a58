/**
 * A provider's type of work as words: `JournalArticle` and `journal-article` read "Journal article",
 * `posted-content` "Preprint" (Crossref's name for it), `BookSection` "Book section".
 */
const NAMED: Record<string, string> = {
  postedcontent: 'Preprint',
  conferencepaper: 'Conference paper',
  proceedingsarticle: 'Conference paper',
  videoaudio: 'Video',
  lettersandcomments: 'Letters and comments',
  metaanalysis: 'Meta-analysis',
};

export function workTypeLabel(type: string): string {
  const known = NAMED[type.toLowerCase().replace(/[^a-z]/g, '')];
  if (known) return known;
  const words = type
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/[-_]+/g, ' ')
    .trim()
    .toLowerCase();
  return words ? words[0]!.toUpperCase() + words.slice(1) : type;
}
