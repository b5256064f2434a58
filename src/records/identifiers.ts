/**
 * Checks of the identifiers a record holds, as their registries define them: a DOI's syntax
 * (https://www.doi.org/the-identifier/resources/handbook/2_numbering), ISBN-10/13 and ISSN check
 * digits (ISO 2108, ISO 3297). A field may hold several ISBNs or ISSNs (print and electronic),
 * separated by spaces, commas or semicolons, as Zotero keeps them.
 */

/** `10.<registrant>/<suffix>`, the suffix any printable characters but spaces. */
const DOI = /^10\.\d{4,9}\/\S+$/;

/** A DOI without its resolver or `doi:` prefix, or null when it is not one. */
export function bareDoi(value: string): string | null {
  const bare = value.trim().replace(/^(?:https?:\/\/(?:dx\.)?doi\.org\/|doi:\s*)/i, '');
  return DOI.test(bare) ? bare : null;
}

/** An arXiv category (`cs.SE`, `math.AG`, `hep-th`, `q-bio.NC`, `astro-ph`), as BibTeX's `primaryClass` holds one. */
export function isArxivCategory(value: string): boolean {
  return /^[a-z][a-z-]*(?:\.[A-Za-z-]{2,})?$/.test(value);
}

/** The separate identifiers of a field that may list several. */
export function listed(value: string): string[] {
  return value.split(/[\s,;]+/).filter(Boolean);
}

function isbn10(digits: string): boolean {
  if (!/^\d{9}[\dX]$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < 10; i += 1) sum += (10 - i) * (digits[i] === 'X' ? 10 : Number(digits[i]));
  return sum % 11 === 0;
}

function isbn13(digits: string): boolean {
  if (!/^97[89]\d{10}$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < 13; i += 1) sum += Number(digits[i]) * (i % 2 === 0 ? 1 : 3);
  return sum % 10 === 0;
}

/** Whether one ISBN (hyphens and spaces allowed) has a right check digit. */
export function isValidIsbn(value: string): boolean {
  const digits = value.replace(/[-\s]/g, '').toUpperCase();
  return digits.length === 10 ? isbn10(digits) : isbn13(digits);
}

/** Whether one ISSN (`NNNN-NNNC`, the hyphen optional) has a right check digit. */
export function isValidIssn(value: string): boolean {
  const digits = value.replace('-', '').toUpperCase();
  if (!/^\d{7}[\dX]$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < 8; i += 1) sum += (8 - i) * (digits[i] === 'X' ? 10 : Number(digits[i]));
  return sum % 11 === 0;
}
