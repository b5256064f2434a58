/** Saving a reply's body as a file: the name from Content-Disposition, the bytes through an object URL. */
import { unwrap } from './client';

/**
 * The file name an `attachment` reply asks for: `filename*` (RFC 6266/8187, UTF-8) before the plain
 * `filename`, without any folder part; `fallback` when there is neither.
 */
export function attachmentFilename(header: string | null, fallback: string): string {
  if (!header) return fallback;
  const extended = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(header)?.[1];
  let name: string | undefined;
  if (extended) {
    try {
      name = decodeURIComponent(extended.trim());
    } catch {
      name = undefined;
    }
  }
  name ??=
    /filename\s*=\s*"((?:[^"\\]|\\.)*)"/i.exec(header)?.[1]?.replace(/\\(.)/g, '$1') ??
    /filename\s*=\s*([^;\s]+)/i.exec(header)?.[1];
  const base = name?.split(/[\\/]/).pop()?.trim();
  return base ? base : fallback;
}

/** Hands the blob to the browser as a download named `filename` (a temporary `<a download>`). */
function saveBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.hidden = true;
  document.body.append(link);
  try {
    link.click();
  } finally {
    link.remove();
    // Some browsers read the object URL after click() returns: free it on a later turn.
    setTimeout(() => URL.revokeObjectURL(url), 1_000);
  }
}

/**
 * Saves the file a blob request answers (`api.GET(…, { parseAs: 'blob' })`), named as its reply asks,
 * else `fallbackName`; a failure throws the API's error (through `unwrap`) and saves nothing, so an
 * error's JSON is never saved as the file.
 */
export async function downloadReply(
  reply: Promise<{ data?: Blob; response: Response }>,
  fallbackName: string,
): Promise<void> {
  const blob = await unwrap(reply);
  const { response } = await reply;
  saveBlob(blob, attachmentFilename(response.headers.get('content-disposition'), fallbackName));
}
