/**
 * What a library search's `q` means. PostgreSQL's `websearch_to_tsquery` reads the words, quotes, `or`
 * and `-word` (it never fails on what a person types); the one thing it cannot do is treat the word
 * still being typed as a prefix. That word is found here, and only when it is a bare word (letters and
 * digits, after a space or at the start, not the end of a quoted phrase or a `-word`): the SQL then
 * adds `:*` to the last lexeme of PostgreSQL's own normalised query (store.ts), so no text a user
 * typed is ever spliced into tsquery syntax.
 */

export interface LibraryQuery {
  /** The text as typed, for `websearch_to_tsquery`. */
  text: string;
  /** The last word when it should match as a prefix (the user has not typed a space after it yet). */
  prefixWord: string | null;
}

/** A word still being typed: letters and digits only, at the very end, after a space or the start. */
const TRAILING_BARE_WORD = /(?:^|\s)([\p{L}\p{N}]+)$/u;

export function parseLibraryQuery(q: string): LibraryQuery {
  const prefixWord = TRAILING_BARE_WORD.exec(q)?.[1] ?? null;
  return { text: q.trim(), prefixWord };
}
