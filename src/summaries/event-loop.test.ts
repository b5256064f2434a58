/**
 * A hostile PDF does not stall the server: a 4-page PDF of about 3 KB whose pages each hold one
 * 50,000-letter "word", summarised in deep mode by an anonymous caller, holds the event loop for
 * seconds if its text is cleaned on it. Other requests must be answered promptly while it is summarised.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import PDFDocument from 'pdfkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/support/app.js';

/**
 * Each page: one run of letters on a single line (pdfkit is told not to wrap it), in a tiny font on a
 * page as wide as PDF allows, so that all of it lies on the page and text extraction keeps it.
 */
function makeLongWordPdf(pages: number, letters: number): Promise<Buffer> {
  const doc = new PDFDocument({ size: [14_400, 200], margin: 10, compress: true });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  doc.font('Helvetica').fontSize(0.5);
  for (let page = 0; page < pages; page++) {
    if (page > 0) doc.addPage();
    doc.text('a'.repeat(letters), 10, 60, { lineBreak: false });
  }
  doc.end();
  return done;
}

describe('a deep summary of a hostile PDF', () => {
  let t: TestApp;
  let pdfServer: Server;
  let base: string;
  let pdfUrl: string;
  let pdfBytes = 0;

  beforeAll(async () => {
    const pdf = await makeLongWordPdf(4, 50_000);
    pdfBytes = pdf.length;
    pdfServer = createServer((_req, res) =>
      res.writeHead(200, { 'content-type': 'application/pdf' }).end(pdf),
    );
    await new Promise<void>((resolve) => pdfServer.listen(0, '127.0.0.1', resolve));
    pdfUrl = `http://127.0.0.1:${(pdfServer.address() as AddressInfo).port}/long-words.pdf`;
    t = await buildTestApp({ env: { OUTBOUND_ALLOW_PRIVATE: '1' } });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await t?.close();
    await new Promise((resolve) => pdfServer?.close(resolve));
  });

  it('leaves the server answering other requests while it is summarised', async () => {
    expect(pdfBytes).toBeLessThan(5_000);
    /** How long one answer of the other client's request takes, from asking to its last byte. */
    const timedAsk = async (): Promise<number> => {
      const started = performance.now();
      const res = await fetch(`${base}/api/search/providers`);
      await res.arrayBuffer();
      expect(res.status).toBe(200);
      return performance.now() - started;
    };
    // The baseline, on this machine as loaded as it is now: the same request while nothing else runs.
    const idle: number[] = [];
    for (let i = 0; i < 10; i++) idle.push(await timedAsk());

    const summaryStarted = performance.now();
    let summaryMs = 0;
    let summarising = true;
    const summary = fetch(`${base}/api/summarize`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ url: pdfUrl, mode: 'deep' }),
    }).finally(() => {
      summarising = false;
      summaryMs = performance.now() - summaryStarted;
    });

    // Another client asks the whole time; each answer's wait is measured.
    const waits: number[] = [];
    const deadline = Date.now() + 60_000;
    while (summarising && Date.now() < deadline) {
      waits.push(await timedAsk());
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const res = await summary;
    // The summary itself is answered (a summary, or a clear error for a text of no words), not dropped.
    expect([200, 422, 504]).toContain(res.status);
    expect(waits.length).toBeGreaterThan(0);
    // Cleaned on the event loop, this text holds it for most of the summary's time (about 11 s of it on
    // a quiet machine); cleaned off it, no answer waits more than a moment: under half the summary's
    // time, or five times the slowest idle answer when the summary is quick.
    expect(Math.max(...waits)).toBeLessThan(Math.max(summaryMs / 2, 5 * Math.max(...idle)));
  }, 90_000);
});
