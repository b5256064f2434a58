/**
 * Bibliographic records: what a resource says about the work it is (names with their roles, dates,
 * venue, identifiers, every CSL 1.0.2 variable), and how records are read from and written as CSL.
 * Search gives records of what providers found; workspaces keep, edit, import and export them.
 */
export * from './vocabulary.js';
export * from './record.js';
export * from './csl.js';
export * from './markup.js';
export { creatorFromParts, creatorFromText, namesAnOrganisation } from './names.js';
export { bareDoi, isArxivCategory, isValidIsbn, isValidIssn, listed } from './identifiers.js';
export * from './citation-key.js';
