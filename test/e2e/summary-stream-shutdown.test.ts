/**
 * SIGTERM while summary streams are open, in the real process: each stream gets an `error` event saying
 * the server is restarting, its work stops (the PDF download is abandoned), and the process exits 0
 * well within its drain time instead of being cut off after it.
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { EventSource } from 'eventsource';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServerProcess } from '../support/server-process.js';

interface StreamEvent {
  event: string;
  data: unknown;
}

describe('shutdown with open summary streams', () => {
  let pdfServer: Server;
  let pdfBase: string;
  const downloads: ServerResponse[] = [];
  const abandoned: string[] = [];

  beforeAll(async () => {
    // A PDF that starts and never finishes: the deep summary is still fetching when SIGTERM arrives.
    pdfServer = createServer((req, res) => {
      downloads.push(res);
      res.on('close', () => {
        if (!res.writableFinished) abandoned.push(req.url ?? '');
      });
      res.writeHead(200, { 'content-type': 'application/pdf', 'content-length': '100000' });
      res.write('%PDF-1.7\n');
    });
    await new Promise<void>((resolve) => pdfServer.listen(0, '127.0.0.1', resolve));
    pdfBase = `http://127.0.0.1:${(pdfServer.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    pdfServer?.closeAllConnections();
    await new Promise((resolve) => pdfServer?.close(resolve));
  });

  it('tells each open stream the server is restarting, stops their work, and exits 0 within the drain time', async () => {
    const server = await startServerProcess({ env: { OUTBOUND_ALLOW_PRIVATE: '1' } });
    const streams = [1, 2].map((n) => {
      const events: StreamEvent[] = [];
      const source = new EventSource(
        `${server.url}/api/summarize?${new URLSearchParams({ url: `${pdfBase}/paper-${n}.pdf`, mode: 'deep' })}`,
      );
      const ended = new Promise<void>((resolve) => {
        for (const name of ['progress', 'meta', 'done', 'error']) {
          source.addEventListener(name, (message) => {
            const data = (message as { data?: string }).data;
            // The EventSource's own error (connection lost) has no data.
            if (data === undefined) return;
            events.push({ event: name, data: JSON.parse(data) as unknown });
            if (name === 'done' || name === 'error') {
              source.close();
              resolve();
            }
          });
        }
      });
      return { source, events, ended };
    });
    try {
      // Both deep summaries are fetching their PDF.
      const deadline = Date.now() + 20_000;
      while (downloads.length < 2 && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 50));
      expect(downloads).toHaveLength(2);

      const started = Date.now();
      const exitCode = await server.stop('SIGTERM');
      const took = Date.now() - started;
      await Promise.race([
        Promise.all(streams.map((s) => s.ended)),
        new Promise((resolve) => setTimeout(resolve, 2000)),
      ]);

      for (const stream of streams) {
        expect(stream.events.at(-1)).toEqual({
          event: 'error',
          data: { message: expect.stringMatching(/restarting/), code: 'SERVICE_UNAVAILABLE' },
        });
        expect(stream.events.map((e) => e.event)).toEqual(['progress', 'error']);
      }
      expect(exitCode).toBe(0);
      // The drain time is 10 s; with nothing left to wait for it takes a fraction of it.
      expect(took).toBeLessThan(5000);
      expect(abandoned.sort()).toEqual(['/paper-1.pdf', '/paper-2.pdf']);
    } finally {
      for (const stream of streams) stream.source.close();
      await server.stop('SIGKILL');
    }
  }, 240_000);
});
