/** The file name of an export, as the server's Content-Disposition gives it. */
import { describe, expect, it } from 'vitest';
import { attachmentFilename } from './download';

describe('attachmentFilename', () => {
  it('prefers the UTF-8 filename* over the ASCII filename', () => {
    expect(
      attachmentFilename(
        `attachment; filename="Lecture-notes.bib"; filename*=UTF-8''L%C3%A9cture%20notes.bib`,
        'x.bib',
      ),
    ).toBe('Lécture notes.bib');
  });

  it('reads a quoted or bare filename, and drops any folder part', () => {
    expect(attachmentFilename('attachment; filename="Reading list.ris"', 'x.ris')).toBe(
      'Reading list.ris',
    );
    expect(attachmentFilename('attachment; filename=list.json', 'x.json')).toBe('list.json');
    expect(attachmentFilename('attachment; filename="../../etc/passwd"', 'x.bib')).toBe('passwd');
  });

  it('falls back when the header is missing, empty or broken', () => {
    expect(attachmentFilename(null, 'workspace.bib')).toBe('workspace.bib');
    expect(attachmentFilename('attachment', 'workspace.bib')).toBe('workspace.bib');
    expect(attachmentFilename("attachment; filename*=UTF-8''%E0%A4%A", 'workspace.bib')).toBe(
      'workspace.bib',
    );
  });
});
