/**
 * Worker thread that extracts text with pdf.js, so that parsing a PDF never blocks the server's
 * event loop. Receives `PdfjsJob` messages and answers each with a `PdfjsResult`.
 */
import { parentPort } from 'node:worker_threads';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { layoutPageText, type PositionedText } from './pdfjs-layout.js';
import type { PdfInfo, PdfjsJob, PdfjsResult } from './pdfjs-protocol.js';

interface RawTextItem {
  str?: string;
  transform?: number[];
  width?: number;
  height?: number;
}

function toPositioned(item: RawTextItem): PositionedText | undefined {
  const transform = item.transform;
  if (typeof item.str !== 'string' || !transform || transform.length < 6) return undefined;
  const [a = 0, b = 0, c = 0, d = 0, x = 0, y = 0] = transform;
  // Rotated text (margin stamps such as arXiv's) is not part of the reading flow.
  if (Math.abs(b) > Math.abs(a) * 0.2 || Math.abs(c) > Math.abs(d) * 0.2) return undefined;
  const fontSize = Math.hypot(c, d) || item.height || 0;
  return { text: item.str, x, y, width: item.width ?? 0, fontSize };
}

function classify(error: unknown): { code: 'encrypted' | 'invalid'; message: string } {
  const name = (error as { name?: string } | null)?.name ?? '';
  const message = error instanceof Error ? error.message : String(error);
  if (name === 'PasswordException') return { code: 'encrypted', message: 'The PDF is encrypted' };
  return { code: 'invalid', message: `The PDF could not be read: ${message}` };
}

function infoString(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() ? value.trim().slice(0, 1000) : undefined;
}

async function extract(job: PdfjsJob): Promise<PdfjsResult> {
  const loadingTask = getDocument({
    data: job.data,
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    stopAtErrors: false,
    verbosity: 0,
  });
  try {
    const document = await loadingTask.promise;
    if (job.infoOnly) {
      const { info } = (await document.getMetadata()) as unknown as {
        info?: Record<string, unknown>;
      };
      const found: PdfInfo = { title: infoString(info?.Title), author: infoString(info?.Author) };
      return {
        id: job.id,
        ok: true,
        text: '',
        pages: document.numPages,
        truncated: false,
        info: found,
      };
    }
    const pages: string[] = [];
    let length = 0;
    let truncated = false;
    for (let number = 1; number <= document.numPages; number++) {
      const page = await document.getPage(number);
      const viewport = page.getViewport({ scale: 1 });
      const content = await page.getTextContent();
      const items: PositionedText[] = [];
      for (const item of content.items as RawTextItem[]) {
        const positioned = toPositioned(item);
        if (positioned) items.push(positioned);
      }
      const text = layoutPageText(items, viewport.width);
      page.cleanup();
      pages.push(text);
      length += text.length + 1;
      if (length >= job.maxChars && number < document.numPages) {
        truncated = true;
        break;
      }
    }
    return { id: job.id, ok: true, text: pages.join('\f'), pages: document.numPages, truncated };
  } catch (error) {
    return { id: job.id, ok: false, ...classify(error) };
  } finally {
    await loadingTask.destroy();
  }
}

parentPort?.on('message', (job: PdfjsJob) => {
  extract(job).then(
    (result) => parentPort?.postMessage(result),
    (error: unknown) =>
      parentPort?.postMessage({ id: job.id, ok: false, ...classify(error) } satisfies PdfjsResult),
  );
});
