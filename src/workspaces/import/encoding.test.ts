/**
 * Citation files in the encodings reference managers write: JabRef's own UTF-16 test files (with and
 * without a byte order mark, CR line ends), and Latin-1 / windows-1252 files as older BibTeX tools
 * leave them, each decoded and then read by the import's parser.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readImportFile } from './commands.js';
import { charsetOf, decodeCitationFile } from './encoding.js';

const fixture = (name: string) =>
  readFileSync(new URL(`../../../test/fixtures/citations/${name}`, import.meta.url));

/** The titles of the entries the parser read from the decoded text. */
async function titlesOf(bytes: Uint8Array, charset: string | null = null) {
  const decoded = decodeCitationFile(bytes, charset);
  const file = await readImportFile(decoded.text, null);
  return {
    encoding: decoded.encoding,
    titles: file.entries.map((entry) =>
      entry.ok ? entry.item.title : `unreadable: ${entry.reason}`,
    ),
  };
}

/** A BibTeX file as a Latin-1 tool writes it, byte by byte. */
const latin1Bib = (header: string) =>
  Buffer.concat([
    Buffer.from(header, 'latin1'),
    Buffer.from(
      '@article{muller1999,\n  title = {\u00dcber die Bedeutung von Caf\u00e9 und Stra\u00dfe},\n  author = {M\u00fcller, J\u00fcrgen},\n  year = {1999}\n}\n',
      'latin1',
    ),
  ]);

describe('citation files in other encodings', () => {
  it("reads JabRef's UTF-16 files: little-endian with a byte order mark, big-endian without one", async () => {
    const title = 'Investigation of the best suture pattern to close a stuffed Christmas turkey';
    await expect(titlesOf(fixture('jabref-utf16le-bom.bib'))).resolves.toEqual({
      encoding: 'utf-16le',
      titles: [title],
    });
    await expect(titlesOf(fixture('jabref-utf16be-nobom.bib'))).resolves.toEqual({
      encoding: 'utf-16be',
      titles: [title],
    });
  });

  it('reads a UTF-16BE file whose lines end in CR alone, with its umlaut', async () => {
    await expect(titlesOf(fixture('jabref-utf16be-header.bib'))).resolves.toEqual({
      encoding: 'utf-16be',
      titles: ['\u00dc ist ein Umlaut'],
    });
  });

  it('reads a Latin-1 file by its JabRef "% Encoding:" line, and one with no header as windows-1252', async () => {
    const expected = ['\u00dcber die Bedeutung von Caf\u00e9 und Stra\u00dfe'];
    await expect(titlesOf(latin1Bib('% Encoding: ISO8859_1\n\n'))).resolves.toEqual({
      encoding: 'windows-1252',
      titles: expected,
    });
    await expect(titlesOf(latin1Bib(''))).resolves.toEqual({
      encoding: 'windows-1252',
      titles: expected,
    });
    // windows-1252's own letters (0x80-0x9F): curly quotes, an en dash, the euro sign.
    const smart = Buffer.concat([
      Buffer.from('@misc{q,\n  title = {'),
      Buffer.from([0x93, 0x51, 0x94, 0x20, 0x96, 0x20, 0x35, 0x80]),
      Buffer.from('}\n}\n'),
    ]);
    await expect(titlesOf(smart)).resolves.toEqual({
      encoding: 'windows-1252',
      titles: ['\u201cQ\u201d \u2013 5\u20ac'],
    });
  });

  it('keeps UTF-8 as UTF-8, a BOM or none, even under a header naming another encoding', async () => {
    const utf8 = Buffer.from(
      '% Encoding: ISO8859_1\n@article{k, title = {Caf\u00e9 \u2014 na\u00efve}}\n',
      'utf8',
    );
    await expect(titlesOf(utf8)).resolves.toEqual({
      encoding: 'utf-8',
      titles: ['Caf\u00e9 \u2014 na\u00efve'],
    });
    await expect(titlesOf(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), utf8]))).resolves.toEqual(
      { encoding: 'utf-8', titles: ['Caf\u00e9 \u2014 na\u00efve'] },
    );
  });

  it('follows the charset the sender named, and refuses one it cannot read or that the bytes break', async () => {
    await expect(titlesOf(latin1Bib(''), 'iso-8859-1')).resolves.toMatchObject({
      titles: ['\u00dcber die Bedeutung von Caf\u00e9 und Stra\u00dfe'],
    });
    expect(() => decodeCitationFile(latin1Bib(''), 'utf-8')).toThrow(/not valid utf-8/);
    expect(() => decodeCitationFile(latin1Bib(''), 'klingon-1')).toThrow(
      /not one this service can read/,
    );
    expect(charsetOf('application/x-bibtex; charset="ISO-8859-1"')).toBe('iso-8859-1');
    expect(charsetOf('application/x-bibtex')).toBeNull();
  });
});
