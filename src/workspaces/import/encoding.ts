/**
 * A citation file's bytes as text. Reference managers do not all write UTF-8: JabRef writes the
 * encoding its library is set to (ISO-8859-1, windows-1252, UTF-16) and names it in a `% Encoding:`
 * first line, older BibTeX files are Latin-1 with no word of it, Windows tools put a byte order mark
 * first. The encoding is, in this order: the charset the sender named (`Content-Type: …; charset=`),
 * a byte order mark (or UTF-16's zero bytes), UTF-8 when the bytes are valid UTF-8, the `% Encoding:` line, else windows-1252,
 * which reads every byte (and is what "Latin-1" files in the wild are).
 */
import { TextDecoder } from 'node:util';
import { validationError } from '../../platform/errors.js';

export interface DecodedFile {
  text: string;
  /** The encoding the text was read in, by its WHATWG name (`utf-8`, `utf-16le`, `windows-1252`, …). */
  encoding: string;
}

/** The `charset` parameter of a Content-Type header, lower case; null when there is none. */
export function charsetOf(contentType: string | undefined): string | null {
  const match = /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(contentType ?? '');
  return match ? match[1]!.toLowerCase() : null;
}

function decoderFor(label: string, fatal: boolean): TextDecoder | null {
  try {
    return new TextDecoder(label, { fatal });
  } catch {
    return null; // not an encoding TextDecoder knows
  }
}

/** A byte order mark; else UTF-16 told by its zero bytes, since a citation file starts with ASCII (`%`, `@`, `TY`, `[`). */
function byteOrderMark(bytes: Uint8Array): string | null {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf-8';
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  if (bytes.length >= 2 && bytes[0] === 0 && bytes[1] !== 0) return 'utf-16be';
  if (bytes.length >= 2 && bytes[0] !== 0 && bytes[1] === 0) return 'utf-16le';
  return null;
}

/** JabRef's first line, `% Encoding: ISO8859_1` (Java's names: `_` where WHATWG labels have `-`). */
function jabrefEncoding(bytes: Uint8Array): string | null {
  const head = Buffer.from(bytes.subarray(0, 256)).toString('latin1');
  const match = /^%\s*Encoding:\s*([A-Za-z0-9_.:-]+)/m.exec(head);
  return match ? match[1]!.replaceAll('_', '-').toLowerCase() : null;
}

export function decodeCitationFile(bytes: Uint8Array, declaredCharset: string | null): DecodedFile {
  if (declaredCharset) {
    const decoder = decoderFor(declaredCharset, true);
    if (!decoder)
      throw validationError(
        'charset',
        'unsupported',
        `The charset "${declaredCharset.slice(0, 40)}" is not one this service can read`,
      );
    try {
      return { text: decoder.decode(bytes), encoding: decoder.encoding };
    } catch {
      throw validationError(
        'charset',
        'invalid',
        `The file is not valid ${decoder.encoding}, the charset it was sent with`,
      );
    }
  }
  const bom = byteOrderMark(bytes);
  if (bom) return { text: new TextDecoder(bom).decode(bytes), encoding: bom };
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes), encoding: 'utf-8' };
  } catch {
    // Not UTF-8: what the file says of itself, else the single-byte encoding that reads every byte.
  }
  const named = jabrefEncoding(bytes);
  const decoder =
    (named && named !== 'utf-8' ? decoderFor(named, false) : null) ??
    new TextDecoder('windows-1252');
  return { text: decoder.decode(bytes), encoding: decoder.encoding };
}
