import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOutbound } from '../../platform/outbound.js';
import { PdfFetchError } from './errors.js';
import { fetchPdf, PDF_MAX_BYTES } from './fetch-pdf.js';
import { makeTextPdf } from './test-support/make-pdf.js';

describe('fetchPdf', () => {
  let server: Server;
  let base: string;
  let pdf: Buffer;
  const outbound = createOutbound({ allowPrivate: true, userAgent: 'research-workspace-test' });

  beforeAll(async () => {
    pdf = await makeTextPdf(['A small PDF served by the test server.']);
    server = createServer((req, res) => {
      switch (req.url) {
        case '/paper.pdf':
          res.writeHead(200, { 'content-type': 'application/pdf' });
          res.end(pdf);
          return;
        case '/moved':
          res.writeHead(301, { location: '/paper.pdf' });
          res.end();
          return;
        case '/page.html':
          res.writeHead(200, { 'content-type': 'text/html' });
          res.end('<html><body>Not a PDF</body></html>');
          return;
        case '/pdf-labelled-html':
          res.writeHead(200, { 'content-type': 'application/pdf' });
          res.end('<html>a login page</html>');
          return;
        case '/huge-declared':
          res.writeHead(200, {
            'content-type': 'application/pdf',
            'content-length': String(300 * 1024 * 1024),
          });
          res.write('%PDF-1.7\n');
          return; // never finishes: the client must give up on the declared size
        case '/huge-streamed': {
          res.writeHead(200, { 'content-type': 'application/pdf' });
          const chunk = Buffer.alloc(256 * 1024, 32);
          let sent = 0;
          const pump = (): void => {
            while (sent < 64 && res.write(chunk)) sent++;
            if (sent < 64) res.once('drain', pump);
            else res.end();
          };
          res.write('%PDF-1.7\n');
          pump();
          return;
        }
        case '/slow':
          return; // never answers
        default:
          res.writeHead(404, { 'content-type': 'text/plain' });
          res.end('Not found');
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await outbound.close();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const failure = async (promise: Promise<unknown>): Promise<PdfFetchError> => {
    const error = await promise.then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(PdfFetchError);
    return error as PdfFetchError;
  };

  it('downloads a PDF, following redirects', async () => {
    expect((await fetchPdf(`${base}/paper.pdf`, { outbound })).equals(pdf)).toBe(true);
    expect((await fetchPdf(`${base}/moved`, { outbound })).equals(pdf)).toBe(true);
  });

  it('rejects an answer that is not a PDF, whatever its content type says', async () => {
    expect((await failure(fetchPdf(`${base}/page.html`, { outbound }))).code).toBe('not_pdf');
    expect((await failure(fetchPdf(`${base}/pdf-labelled-html`, { outbound }))).code).toBe(
      'not_pdf',
    );
  });

  it('reports an HTTP error with its status', async () => {
    const error = await failure(fetchPdf(`${base}/missing.pdf`, { outbound }));
    expect(error.code).toBe('http_error');
    expect(error.status).toBe(404);
  });

  it('refuses a file over the 25 MB cap, declared or streamed', async () => {
    expect(PDF_MAX_BYTES).toBe(25 * 1024 * 1024);
    expect((await failure(fetchPdf(`${base}/huge-declared`, { outbound }))).code).toBe('too_large');
    expect(
      (await failure(fetchPdf(`${base}/huge-streamed`, { outbound, maxBytes: 4 * 1024 * 1024 })))
        .code,
    ).toBe('too_large');
  });

  it('gives up at its deadline', async () => {
    expect((await failure(fetchPdf(`${base}/slow`, { outbound, timeoutMs: 300 }))).code).toBe(
      'timeout',
    );
  });

  it('stops when the caller aborts', async () => {
    const controller = new AbortController();
    const pending = fetchPdf(`${base}/slow`, { outbound, signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    expect((await failure(pending)).code).toBe('aborted');
  });

  it('refuses private and loopback addresses unless allowed', async () => {
    const guarded = createOutbound({ allowPrivate: false, userAgent: 'research-workspace-test' });
    try {
      expect((await failure(fetchPdf(`${base}/paper.pdf`, { outbound: guarded }))).code).toBe(
        'blocked_address',
      );
      expect(
        (
          await failure(
            fetchPdf('http://169.254.169.254/latest/meta-data.pdf', { outbound: guarded }),
          )
        ).code,
      ).toBe('blocked_address');
      expect(
        (await failure(fetchPdf('http://localhost/paper.pdf', { outbound: guarded }))).code,
      ).toBe('blocked_address');
    } finally {
      await guarded.close();
    }
  });

  it('rejects an address that is not http(s)', async () => {
    expect((await failure(fetchPdf('file:///etc/passwd', { outbound }))).code).toBe('bad_url');
  });
});
