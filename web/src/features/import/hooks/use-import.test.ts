/** What the import dialog says about a file it refuses before sending it, and about the API's refusals. */
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../api/errors';
import { fileProblem, importErrorMessage } from './use-import';

describe('fileProblem', () => {
  it('refuses an empty file and one over 10 MB before anything is sent, and lets the rest through', () => {
    expect(fileProblem(new File([], 'empty.bib'))).toMatch(/^empty\.bib is empty/);
    expect(fileProblem(new File([new Uint8Array(10 * 1024 * 1024 + 1)], 'huge.bib'))).toMatch(
      /^huge\.bib is larger than 10 MB/,
    );
    expect(fileProblem(new File([new Uint8Array(10 * 1024 * 1024)], 'just-fits.bib'))).toBeNull();
  });
});

describe('importErrorMessage', () => {
  const refusal = (
    status: number,
    code: ConstructorParameters<typeof ApiError>[1],
    message: string,
    details = {},
  ) => new ApiError(status, code, message, details);

  it('words 413 and 415 for the person who chose the file, not as codes', () => {
    const tooLarge = importErrorMessage(
      refusal(413, 'PAYLOAD_TOO_LARGE', 'Request body is too large'),
    );
    expect(tooLarge).toContain('larger than 10 MB');
    expect(tooLarge).not.toContain('Request body');
    expect(
      importErrorMessage(
        refusal(415, 'UNSUPPORTED_MEDIA_TYPE', 'Unsupported Media Type: text/html'),
      ),
    ).toContain('Choose a BibTeX (.bib), RIS (.ris) or CSL-JSON (.json) file');
  });

  it('words a 400 about the file by its reason, keeping the API’s own words where they say what to do', () => {
    expect(
      importErrorMessage(
        refusal(400, 'VALIDATION_ERROR', 'no entry', { field: 'file', reason: 'no_entries' }),
      ),
    ).toBe('This file holds no references to import.');
    expect(
      importErrorMessage(
        refusal(400, 'VALIDATION_ERROR', 'The file is not valid JSON: Unexpected end', {
          field: 'file',
          reason: 'unreadable',
        }),
      ),
    ).toBe('The file could not be read. The file is not valid JSON: Unexpected end');
    const split = 'The file holds 6,000 entries; import at most 5,000 at a time (split the file)';
    expect(
      importErrorMessage(
        refusal(400, 'VALIDATION_ERROR', split, { field: 'file', reason: 'too_many_entries' }),
      ),
    ).toBe(split);
    expect(importErrorMessage(refusal(404, 'NOT_FOUND', 'Workspace not found'))).toBe(
      'Workspace not found',
    );
  });
});
