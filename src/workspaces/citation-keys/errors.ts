import { conflict } from '../../platform/errors.js';

/** 409: another resource of the workspace holds the key (in any case, as BibTeX compares keys). */
export const citationKeyTaken = (key: string, holderId: string) =>
  conflict(
    `The citation key "${key}" is taken in this workspace by resource ${holderId}: choose another`,
    { field: 'citationKey', reason: 'citation_key_taken' },
  );
