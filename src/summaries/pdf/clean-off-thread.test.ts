/** Cleaning a PDF's text in a worker thread: the same result as on the event loop, a time budget, and cancellation. */
import { afterAll, describe, expect, it } from 'vitest';
import { cleanPdfText } from '../clean-text.js';
import { cleanPdfTextOffThread, closeCleanWorkers } from './clean-off-thread.js';
import { PdfTextError } from './errors.js';

const PAGES = [
  'Deep Summaries\nAbstract\nWe study how extractive summaries help readers. Our method scores sen-\ntences by their terms.\n1',
  'Deep Summaries\n2 Method\nIt runs in a few milliseconds on a long paper.\n2',
].join('\f');

describe('cleanPdfTextOffThread', () => {
  afterAll(async () => closeCleanWorkers());

  it('gives what cleaning on the event loop gives, again with the kept worker', async () => {
    expect(await cleanPdfTextOffThread(PAGES)).toBe(cleanPdfText(PAGES));
    expect(await cleanPdfTextOffThread(`${PAGES}\fMore text on a third page.`)).toBe(
      cleanPdfText(`${PAGES}\fMore text on a third page.`),
    );
  });

  it('stops a job that overruns its time budget, and the next job still runs', async () => {
    // About 900,000 characters of lines that each end in a hyphen: hundreds of milliseconds of work.
    const slow = Array.from({ length: 100_000 }, () => 'abcdefgh-').join('\n');
    const error = await cleanPdfTextOffThread(slow, { timeoutMs: 5 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PdfTextError);
    expect(error).toMatchObject({ code: 'timeout' });
    expect(await cleanPdfTextOffThread(PAGES)).toBe(cleanPdfText(PAGES));
  });

  it('stops when its caller gives up', async () => {
    const caller = new AbortController();
    const job = cleanPdfTextOffThread('a'.repeat(200_000), { signal: caller.signal });
    caller.abort();
    await expect(job).rejects.toMatchObject({ code: 'aborted' });
    const already = cleanPdfTextOffThread(PAGES, { signal: caller.signal });
    await expect(already).rejects.toMatchObject({ code: 'aborted' });
  });
});
