/**
 * POST /api/summarize and GET /api/summarize (read by a real EventSource) through the whole service:
 * real PDFs served by a local HTTP server, the caches (memory, Redis, and the KV REST protocol over
 * the machine's real Redis), failures that end in clear errors, and the limits.
 */
import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { EventSource } from 'eventsource';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, storeLegs, type TestApp } from '../../test/support/app.js';
import {
  buildUser,
  cookieHeader,
  cookiesFrom,
  expiredAccessToken,
} from '../../test/support/factories.js';
import { startKvRestServer, type KvRestServer } from '../../test/support/kv-rest-server.js';
import { makeImageOnlyPdf, makeTextPdf } from './pdf/test-support/make-pdf.js';

const SPECTER = readFileSync(
  new URL('../../test/fixtures/pdfs/specter-acl2020-2col.pdf', import.meta.url),
);
const QUICK = {
  title: 'Attention Is All You Need',
  abstract:
    'The dominant sequence transduction models are based on complex ' +
    'recurrent or convolutional neural networks that include an encoder and ' +
    'a decoder. The best performing models also connect the encoder and ' +
    'decoder through an attention mechanism. We propose a new simple network ' +
    'architecture, the Transformer, based solely on attention mechanisms, ' +
    'dispensing with recurrence and convolutions entirely. Experiments on ' +
    'two machine translation tasks show these models to be superior in ' +
    'quality while being more parallelizable and requiring significantly ' +
    'less time to train. Our model achieves 28.4 BLEU on the WMT 2014 ' +
    'English-to-German translation task, improving over the existing best ' +
    'results by over 2 BLEU.',
};

interface PdfServer {
  url: string;
  hits: Map<string, number>;
  /** Paths whose client went away before the answer was complete. */
  abandoned: string[];
  /** Resolves once the path has been asked for (`requested`) or left unfinished (`abandoned`); rejects after `withinMs`. */
  when(what: 'requested' | 'abandoned', path: string, withinMs?: number): Promise<void>;
  close(): Promise<void>;
}

async function startPdfServer(
  scanned: Buffer,
  extra: Record<string, Buffer> = {},
): Promise<PdfServer> {
  const hits = new Map<string, number>();
  const abandoned: string[] = [];
  const events = new EventEmitter();
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = req.url ?? '/';
    hits.set(path, (hits.get(path) ?? 0) + 1);
    events.emit('requested', path);
    res.on('close', () => {
      if (res.writableFinished) return;
      abandoned.push(path);
      events.emit('abandoned', path);
    });
    if (path.startsWith('/arxiv-pdf/'))
      return void res.writeHead(200, { 'content-type': 'application/pdf' }).end(SPECTER);
    if (path === '/papers/specter.pdf')
      return void res.writeHead(200, { 'content-type': 'application/pdf' }).end(SPECTER);
    const made = extra[path];
    if (made) return void res.writeHead(200, { 'content-type': 'application/pdf' }).end(made);
    if (path === '/papers/scan.pdf')
      return void res.writeHead(200, { 'content-type': 'application/pdf' }).end(scanned);
    if (path === '/papers/fake.pdf')
      return void res.writeHead(200, { 'content-type': 'text/html' }).end('<html>not a pdf</html>');
    if (path === '/papers/landing')
      return void res
        .writeHead(200, { 'content-type': 'text/html' })
        .end('<html>landing page</html>');
    if (path === '/papers/huge.pdf') {
      // Declares 300 MB and starts streaming: the cap must stop it without reading it all.
      res.writeHead(200, {
        'content-type': 'application/pdf',
        'content-length': String(300 * 1024 * 1024),
      });
      res.write(Buffer.from('%PDF-1.7\n'));
      return;
    }
    if (path.startsWith('/papers/slow.pdf')) {
      res.writeHead(200, { 'content-type': 'application/pdf' });
      res.write(SPECTER.subarray(0, 1000));
      setTimeout(() => res.end(SPECTER.subarray(1000)), 3000);
      return;
    }
    res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hits,
    abandoned,
    when: (what, path, withinMs = 10_000) =>
      new Promise((resolve, reject) => {
        if (what === 'requested' ? hits.has(path) : abandoned.includes(path)) return resolve();
        const timer = setTimeout(() => {
          events.off(what, seen);
          reject(new Error(`${path} was not ${what} within ${withinMs} ms`));
        }, withinMs);
        const seen = (seenPath: string) => {
          if (seenPath !== path) return;
          clearTimeout(timer);
          events.off(what, seen);
          resolve();
        };
        events.on(what, seen);
      }),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

interface StreamEvent {
  event: string;
  data: unknown;
}

/** Reads one summary stream with a real EventSource until `done` or `error`. */
function readStream(
  url: string,
  closeAfter?: (event: StreamEvent) => boolean,
): Promise<StreamEvent[]> {
  return new Promise((resolve, reject) => {
    const source = new EventSource(url);
    const events: StreamEvent[] = [];
    const timer = setTimeout(() => {
      source.close();
      reject(new Error(`stream did not finish: ${JSON.stringify(events)}`));
    }, 30_000);
    const finish = () => {
      clearTimeout(timer);
      source.close();
      resolve(events);
    };
    for (const name of ['meta', 'progress', 'tldr', 'bullets', 'tags', 'done', 'error']) {
      source.addEventListener(name, (message) => {
        const event = {
          event: name,
          data: JSON.parse(String((message as { data: unknown }).data)) as unknown,
        };
        events.push(event);
        if (name === 'done' || name === 'error' || closeAfter?.(event)) finish();
      });
    }
  });
}

describe('summaries', () => {
  let pdfs: PdfServer;
  let t: TestApp;
  let base: string;
  beforeAll(async () => {
    pdfs = await startPdfServer(await makeImageOnlyPdf());
    t = await buildTestApp({
      env: { OUTBOUND_ALLOW_PRIVATE: '1', ARXIV_PDF_URL: `${pdfs.url}/arxiv-pdf` },
    });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await t?.close();
    await pdfs?.close();
  });

  describe('POST /api/summarize', () => {
    it('summarises title + abstract (quick, Variant A), then serves it from memory', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/summarize',
        payload: { id: 'arxiv:1706.03762', ...QUICK, mode: 'quick' },
      });
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body).toMatchObject({
        confidence: 'medium',
        modeRequested: 'quick',
        modeUsed: 'quick',
        fromCache: false,
        cache: 'memory',
      });
      expect(body.bullets.length).toBeGreaterThanOrEqual(3);
      expect(body.bullets.length).toBeLessThanOrEqual(5);
      for (const bullet of body.bullets) expect(QUICK.abstract).toContain(bullet);
      const order = body.bullets.map((bullet: string) => QUICK.abstract.indexOf(bullet));
      expect([...order].sort((a: number, b: number) => a - b)).toEqual(order);
      expect(body.tldr.length).toBeGreaterThan(20);
      expect(body.tags.length).toBeGreaterThan(0);
      expect(
        body.tags.every(
          (tag: string) => !/^\d+$/.test(tag) && !['the', 'and', 'we', 'our'].includes(tag),
        ),
      ).toBe(true);
      const again = await t.app.inject({
        method: 'POST',
        url: '/api/summarize',
        payload: { id: 'arxiv:1706.03762', ...QUICK, mode: 'quick' },
      });
      expect(again.json()).toMatchObject({ fromCache: 'memory', tldr: body.tldr });
    });

    it.each([
      // A summary is keyed by what it is made of (title + abstract), so each case sends its own.
      [
        'Variant A, quick',
        {
          id: 'openalex:W-hit-equals-miss',
          ...QUICK,
          abstract: `${QUICK.abstract} Hit equals miss (A).`,
          mode: 'quick',
        },
      ],
      [
        'Variant A, auto without an address (quick)',
        { title: 'Hit equals miss, auto', abstract: QUICK.abstract, mode: 'auto' },
      ],
      ['Variant B', { content: `${QUICK.abstract} Hit equals miss.`, type: 'article' }],
    ])(
      'answers a cache hit exactly as the miss, but for fromCache (%s)',
      async (_label, payload) => {
        const miss = await t.app.inject({ method: 'POST', url: '/api/summarize', payload });
        const hits = [
          await t.app.inject({ method: 'POST', url: '/api/summarize', payload }),
          await t.app.inject({ method: 'POST', url: '/api/summarize', payload }),
        ];
        expect(miss.statusCode).toBe(200);
        expect(miss.json().fromCache).toBe(false);
        for (const hit of hits) {
          expect(hit.statusCode).toBe(200);
          expect(hit.headers['content-type']).toBe(miss.headers['content-type']);
          expect(hit.body).toBe(miss.body.replace('"fromCache":false', '"fromCache":"memory"'));
        }
      },
    );

    it('summarises content (Variant B) with summary and metadata', async () => {
      const content = Array.from({ length: 8 }, () => QUICK.abstract)
        .join(' ')
        .replace(/Transformer/g, (m, i: number) => `${m}${i % 3}`);
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/summarize',
        payload: { content, type: 'research_paper' },
      });
      expect(res.statusCode).toBe(200);
      const { summary, metadata } = res.json();
      expect(summary.keyPoints.length).toBeGreaterThan(0);
      expect(summary.keywords.length).toBeGreaterThan(0);
      expect(typeof summary.abstract).toBe('string');
      expect(typeof summary.conclusion).toBe('string');
      const naiveWords = content.split(/\s+/).length;
      expect(metadata.wordCount).toBeGreaterThan(naiveWords * 0.9);
      expect(metadata.wordCount).toBeLessThan(naiveWords * 1.1);
      expect(metadata.confidence).toBeGreaterThan(0);
      expect(metadata.confidence).toBeLessThanOrEqual(1);
    });

    it('summarises the text of a real paper PDF (deep, by arXiv id)', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/summarize',
        payload: { id: 'arxiv:2004.07180v4', source: 'arxiv', title: 'SPECTER', mode: 'deep' },
      });
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body.modeUsed).toBe('deep');
      expect(body.bullets.length).toBeGreaterThanOrEqual(5);
      expect(body.bullets.length).toBeLessThanOrEqual(6);
      expect(body.readingTimeMinutes).toBeGreaterThan(10);
      expect(body.tags.join(' ')).toMatch(/citation|document|embedding|specter|scidocs/i);
      expect(pdfs.hits.get('/arxiv-pdf/2004.07180v4')).toBe(1);
    });

    it('computes concurrent identical deep requests once', async () => {
      const payload = { id: 'arxiv:2004.07181', mode: 'deep' };
      const replies = await Promise.all(
        [1, 2, 3].map(() => t.app.inject({ method: 'POST', url: '/api/summarize', payload })),
      );
      expect(replies.map((r) => r.statusCode)).toEqual([200, 200, 200]);
      expect(pdfs.hits.get('/arxiv-pdf/2004.07181')).toBe(1);
    });

    it.each([
      [{ url: '/papers/scan.pdf' }, 422, /scanned/],
      [{ url: '/papers/fake.pdf' }, 422, /did not return a PDF/],
      [{ url: '/papers/landing' }, 422, /No PDF/],
      [{ url: '/papers/missing.pdf' }, 502, /could not be downloaded/],
      [{ url: '/papers/huge.pdf' }, 413, /25 MB/],
    ])('ends deep mode with a clear error for %j', async (target, status, message) => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/summarize',
        payload: { url: `${pdfs.url}${target.url}`, mode: 'deep' },
      });
      expect(res.statusCode).toBe(status);
      expect(res.json()).toEqual({ error: expect.stringMatching(message) });
    });

    it('stops the work when the client disconnects', async () => {
      const client = new AbortController();
      const reply = fetch(`${base}/api/summarize`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ url: `${pdfs.url}/papers/slow.pdf?post`, mode: 'deep' }),
        signal: client.signal,
      }).catch(() => 'gone');
      // The service is downloading the PDF (its server sends the rest only after 3 s).
      await pdfs.when('requested', '/papers/slow.pdf?post');
      client.abort();
      expect(await reply).toBe('gone');
      await pdfs.when('abandoned', '/papers/slow.pdf?post', 2000);
      expect(pdfs.abandoned).toContain('/papers/slow.pdf?post');
    });

    it('does not cache failures', async () => {
      const payload = { url: `${pdfs.url}/papers/scan.pdf`, mode: 'deep' };
      const before = pdfs.hits.get('/papers/scan.pdf') ?? 0;
      await t.app.inject({ method: 'POST', url: '/api/summarize', payload });
      await t.app.inject({ method: 'POST', url: '/api/summarize', payload });
      expect(pdfs.hits.get('/papers/scan.pdf')).toBe(before + 2);
    });

    it('falls back to quick in auto mode, and says so', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/summarize',
        payload: { ...QUICK, url: `${pdfs.url}/papers/scan.pdf`, mode: 'auto' },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ modeRequested: 'auto', modeUsed: 'quick' });
    });

    it.each([
      ['an empty body', {}, /content/],
      ['deep without id or url', { mode: 'deep', title: 'no id' }, /id or a url/],
      ['an unknown mode', { title: 'x', mode: 'fast' }, /mode/],
      ['content over 400,000 characters', { content: 'x'.repeat(400_001) }, /content/],
    ])('answers 400 with { error } for %s', async (_label, payload, message) => {
      const res = await t.app.inject({ method: 'POST', url: '/api/summarize', payload });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ error: expect.stringMatching(message) });
    });
  });

  describe('GET /api/summarize (server-sent events)', () => {
    it('streams meta, tldr, bullets, tags, done; the second time from the cache', async () => {
      const query = new URLSearchParams({
        id: 'pubmed:1',
        ...QUICK,
        abstract: `${QUICK.abstract} Streamed.`,
        mode: 'quick',
      });
      const events = await readStream(`${base}/api/summarize?${query}`);
      expect(events.map((e) => e.event)).toEqual(['meta', 'tldr', 'bullets', 'tags', 'done']);
      expect(events[0]!.data).toEqual({
        fromCache: false,
        cache: 'memory',
        modeRequested: 'quick',
        modeUsed: 'quick',
      });
      expect(events[4]!.data).toEqual({ ok: true });
      const again = await readStream(`${base}/api/summarize?${query}`);
      expect(again[0]!.data).toMatchObject({ fromCache: 'memory' });
      expect(again[1]!.data).toEqual(events[1]!.data);
    });

    it('reports progress during deep work', async () => {
      const query = new URLSearchParams({ url: `${pdfs.url}/papers/specter.pdf`, mode: 'deep' });
      const events = await readStream(`${base}/api/summarize?${query}`);
      expect(events.map((e) => e.event)).toEqual([
        'progress',
        'progress',
        'progress',
        'meta',
        'tldr',
        'bullets',
        'tags',
        'done',
      ]);
      expect(events.slice(0, 3).map((e) => (e.data as { stage: string }).stage)).toEqual([
        'fetching',
        'extracting',
        'summarizing',
      ]);
    });

    it('ends in an error event, and nothing else, when deep mode cannot get text', async () => {
      for (const url of [
        `${pdfs.url}/papers/scan.pdf`,
        `${pdfs.url}/papers/missing.pdf`,
        `${pdfs.url}/papers/huge.pdf`,
      ]) {
        const events = await readStream(
          `${base}/api/summarize?${new URLSearchParams({ url, mode: 'deep' })}`,
        );
        const last = events.at(-1)!;
        expect(last.event).toBe('error');
        expect((last.data as { message: string }).message.length).toBeGreaterThan(5);
        expect(
          events.some((e) => ['meta', 'tldr', 'bullets', 'tags', 'done'].includes(e.event)),
        ).toBe(false);
      }
    });

    it('reports bad parameters as an error event', async () => {
      const events = await readStream(`${base}/api/summarize?mode=sideways&title=x`);
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({ event: 'error', data: { code: 'VALIDATION_ERROR' } });
    });

    it('stops the work when the client disconnects', async () => {
      const query = new URLSearchParams({ url: `${pdfs.url}/papers/slow.pdf`, mode: 'deep' });
      await readStream(`${base}/api/summarize?${query}`, (event) => event.event === 'progress');
      // The PDF's server finishes after 3 s: the download is dropped well before.
      await pdfs.when('abandoned', '/papers/slow.pdf', 2000);
      expect(pdfs.abandoned).toContain('/papers/slow.pdf');
    });
  });
});

describe('summaries behind the address guard', () => {
  it('refuses a PDF address on a private network', async () => {
    const t = await buildTestApp();
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/summarize',
      payload: { url: 'http://127.0.0.1:9/paper.pdf', mode: 'deep' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatch(/not allowed/);
    const metadata = await t.app.inject({
      method: 'POST',
      url: '/api/summarize',
      payload: { url: 'http://169.254.169.254/latest/meta-data/x.pdf', mode: 'deep' },
    });
    expect(metadata.statusCode).toBe(400);
    await t.close();
  });
});

describe('summarize rate limit', () => {
  it('allows RATE_LIMIT_SUMMARIZE_PER_HOUR requests per visitor, then 429 with { error }', async () => {
    const t = await buildTestApp({ env: { RATE_LIMIT_SUMMARIZE_PER_HOUR: '2' } });
    const codes = [];
    let last: LightMyRequestResponse | undefined;
    for (let i = 0; i < 3; i++) {
      last = await t.app.inject({
        method: 'POST',
        url: '/api/summarize',
        payload: QUICK,
        headers: { 'x-forwarded-for': '203.0.113.9' },
      });
      codes.push(last.statusCode);
    }
    expect(codes).toEqual([200, 200, 429]);
    expect(last!.json()).toEqual({ error: expect.stringMatching(/Too many requests/) });
    expect(Number(last!.headers['retry-after'])).toBeGreaterThan(0);
    await t.close();
  });
});

describe('summary stream headers', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({
      env: { RATE_LIMIT_SUMMARIZE_PER_HOUR: '7', RATE_LIMIT_AUTHENTICATED_PER_HOUR: '1000' },
    });
  });
  afterAll(async () => t?.close());
  const streamUrl = (title: string) =>
    `/api/summarize?${new URLSearchParams({ title, abstract: QUICK.abstract })}`;

  it('sends the refreshed session cookies when it refreshed an expired access cookie, so the session lives on', async () => {
    const user = await buildUser(t.app);
    const expired = await expiredAccessToken(t.app, user, 'expired-session');
    const res = await t.app.inject({
      method: 'GET',
      url: streamUrl('Refreshed on the stream'),
      headers: {
        cookie: cookieHeader({ access_token: expired, refresh_token: user.refreshToken }),
      },
    });
    expect(res.statusCode).toBe(200);
    expect(res.body).toMatch(/event: done/);
    const jar = cookiesFrom(res);
    expect(jar.access_token).toBeTruthy();
    expect(jar.access_token).not.toBe(expired);
    expect(jar.refresh_token).toBeTruthy();
    expect(jar.refresh_token).not.toBe(user.refreshToken);
    for (const cookie of res.cookies.filter(
      (c) => c.name === 'access_token' || c.name === 'refresh_token',
    )) {
      expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    }
    // The browser goes on with the rotated pair: still signed in, no reuse of the old refresh token.
    const next = await t.app.inject({
      method: 'GET',
      url: '/api/auth/session',
      headers: {
        cookie: cookieHeader({
          access_token: jar.access_token!,
          refresh_token: jar.refresh_token!,
        }),
      },
    });
    expect(next.statusCode).toBe(200);
    expect(next.json().user.id).toBe(user.id);
  });

  it('gives a visitor an anonymous session cookie, as every other route does', async () => {
    const res = await t.app.inject({ method: 'GET', url: streamUrl('A visitor streams') });
    expect(cookiesFrom(res).anon_session).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("carries the summarize limit's RateLimit headers, not the general one's, and refuses past it in an error event", async () => {
    const user = await buildUser(t.app);
    const remaining: string[] = [];
    for (let i = 0; i < 8; i++) {
      const res = await t.app.inject({
        method: 'GET',
        url: streamUrl(`Counted ${i}`),
        headers: user.bearer,
      });
      expect(res.headers['ratelimit-limit']).toBe('7');
      remaining.push(String(res.headers['ratelimit-remaining']));
      if (i === 7) {
        expect(res.body).toMatch(
          /id: end\nevent: error\ndata: \{"message":"Too many requests[^"]*","code":"RATE_LIMITED","retryAfter":\d+\}/,
        );
        const retryAfter = Number(res.headers['retry-after']);
        expect(retryAfter).toBeGreaterThan(0);
        // The event carries the header's seconds: an EventSource cannot read headers.
        const event = JSON.parse(/event: error\ndata: (.*)\n/.exec(res.body)![1]!) as {
          retryAfter: number;
        };
        expect(event.retryAfter).toBe(retryAfter);
      }
    }
    expect(remaining).toEqual(['6', '5', '4', '3', '2', '1', '0', '0']);
  });

  it('is documented in the OpenAPI document: the event stream, the 204 and the Last-Event-ID header', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    const stream = doc.paths['/api/summarize'].get;
    expect(Object.keys(stream.responses['200'].content)).toEqual(['text/event-stream']);
    expect(stream.responses['204']).toBeDefined();
    expect(stream.parameters).toEqual(
      expect.arrayContaining([expect.objectContaining({ in: 'header', name: 'last-event-id' })]),
    );
    expect(stream.description).toMatch(/Last-Event-ID: end/);
  });

  it('numbers its events, asks for a long reconnection delay, and answers a reconnect after the end 204 without counting it', async () => {
    const visitor = (
      await t.app.inject({ method: 'GET', url: streamUrl('Numbered') })
    ).cookies.find((c) => c.name === 'anon_session')!.value;
    const headers = { cookie: `anon_session=${visitor}` };
    const res = await t.app.inject({ method: 'GET', url: streamUrl('Numbered'), headers });
    expect(res.body).toMatch(/^retry: 3600000\n\nid: 1\nevent: meta\n/);
    expect(res.body.match(/^id: .*$/gm)).toEqual(['id: 1', 'id: 2', 'id: 3', 'id: 4', 'id: end']);
    const before = Number(res.headers['ratelimit-remaining']);
    const reconnect = await t.app.inject({
      method: 'GET',
      url: streamUrl('Numbered'),
      headers: { ...headers, 'last-event-id': 'end' },
    });
    expect(reconnect.statusCode).toBe(204);
    expect(reconnect.body).toBe('');
    const after = await t.app.inject({ method: 'GET', url: streamUrl('Numbered'), headers });
    expect(Number(after.headers['ratelimit-remaining'])).toBe(before - 1);
  });
});

const redisLeg = storeLegs()[1]!;

describe.skipIf(redisLeg.skipReason)('shared summary cache', () => {
  let kv: KvRestServer;
  beforeAll(async () => {
    kv = await startKvRestServer(process.env.TEST_REDIS_URL!);
  });
  afterAll(async () => kv?.close());

  it('stores in the KV REST store for seven days and serves other processes from it', async () => {
    const env = { KV_REST_API_URL: kv.url, KV_REST_API_TOKEN: kv.token };
    const first = await buildTestApp({ env });
    const second = await buildTestApp({ env });
    const payload = {
      id: `zenodo:${Date.now()}`,
      ...QUICK,
      abstract: `${QUICK.abstract} Run ${randomUUID()}.`,
    };
    const a = await first.app.inject({ method: 'POST', url: '/api/summarize', payload });
    expect(a.json()).toMatchObject({ fromCache: false, cache: 'kv+memory' });
    const set = kv.commands.find((command) => command[0]?.toLowerCase() === 'set');
    expect(set).toBeDefined();
    expect(set!.map(String)).toEqual(expect.arrayContaining(['ex', String(7 * 24 * 3600)]));
    const b = await second.app.inject({ method: 'POST', url: '/api/summarize', payload });
    expect(b.json()).toMatchObject({ fromCache: 'kv', tldr: a.json().tldr });

    await first.app.ctx.platform.health.refresh();
    expect((await first.app.inject({ method: 'GET', url: '/api/health' })).json().services.kv).toBe(
      'connected',
    );
    await first.close();
    await second.close();
  });

  it('goes on with memory when the shared store is down, and health says so', async () => {
    const t = await buildTestApp({ env: { KV_REST_API_URL: kv.url, KV_REST_API_TOKEN: kv.token } });
    kv.setDown(true);
    try {
      const payload = {
        id: `zenodo:down-${Date.now()}`,
        ...QUICK,
        abstract: `${QUICK.abstract} Run ${randomUUID()}.`,
      };
      const first = await t.app.inject({ method: 'POST', url: '/api/summarize', payload });
      expect(first.statusCode).toBe(200);
      expect(first.json().fromCache).toBe(false);
      const second = await t.app.inject({ method: 'POST', url: '/api/summarize', payload });
      expect(second.json().fromCache).toBe('memory');
      await t.app.ctx.platform.health.refresh();
      const health = (await t.app.inject({ method: 'GET', url: '/api/health' })).json();
      expect(health.services.kv).toBe('disconnected');
      expect(health.status).toBe('degraded');
    } finally {
      kv.setDown(false);
      await t.close();
    }
  });

  it('uses Redis as the shared store when only REDIS_URL is set', async () => {
    const first = await buildTestApp({ leg: redisLeg });
    const payload = {
      id: `crossref:10.1/${Date.now()}`,
      ...QUICK,
      abstract: `${QUICK.abstract} Run ${randomUUID()}.`,
    };
    expect(
      (await first.app.inject({ method: 'POST', url: '/api/summarize', payload })).json().fromCache,
    ).toBe(false);
    expect(
      (await first.app.inject({ method: 'POST', url: '/api/summarize', payload })).json().fromCache,
    ).toBe('kv');
    await first.close();
  });
});

/** What an anonymous caller made up about a paper: it must reach nobody else, so the cache is keyed by the input, not the id. */
const LIE =
  'This paper proves that the moon is made of green cheese. Cheese ' +
  'astronomy replaces attention entirely. Readers should send their ' +
  'savings to the cheese fund at once. Every translation benchmark was won ' +
  'by cheese. The cheese results are final and beyond doubt.';

for (const leg of storeLegs()) {
  describe.skipIf(leg.skipReason)(
    `summary cache keyed by what was summarised (${leg.name})`,
    () => {
      let pdfs: PdfServer;
      let t: TestApp;
      beforeAll(async () => {
        pdfs = await startPdfServer(await makeImageOnlyPdf(), {
          '/papers/lie.pdf': await makeTextPdf(Array.from({ length: 12 }, () => LIE)),
        });
        t = await buildTestApp({
          leg,
          env: { OUTBOUND_ALLOW_PRIVATE: '1', ARXIV_PDF_URL: `${pdfs.url}/arxiv-pdf` },
        });
      });
      afterAll(async () => {
        await t?.close();
        await pdfs?.close();
      });

      const summaryText = (body: { tldr: string; bullets: string[]; tags: string[] }) =>
        [body.tldr, ...body.bullets, ...body.tags].join(' ');

      it('serves a lying abstract sent with an id to its sender only, never to the next caller for that id', async () => {
        const id = `arxiv:1706.03762-${leg.name}`;
        const liar = await t.app.inject({
          method: 'POST',
          url: '/api/summarize',
          payload: { id, title: QUICK.title, abstract: LIE, mode: 'quick' },
        });
        expect(liar.statusCode).toBe(200);
        expect(summaryText(liar.json())).toMatch(/cheese/);

        const honest = await t.app.inject({
          method: 'POST',
          url: '/api/summarize',
          payload: { id, ...QUICK, mode: 'quick' },
        });
        expect(honest.statusCode).toBe(200);
        expect(honest.json().fromCache).toBe(false);
        expect(summaryText(honest.json())).not.toMatch(/cheese/);
        for (const bullet of honest.json().bullets) expect(QUICK.abstract).toContain(bullet);

        // By id alone there is nothing to summarise: the liar's entry is not an answer for it either.
        const byIdAlone = await t.app.inject({
          method: 'POST',
          url: '/api/summarize',
          payload: { id, mode: 'quick' },
        });
        expect(byIdAlone.body).not.toMatch(/cheese/);

        // The same input again is a hit, so the cache still works.
        const again = await t.app.inject({
          method: 'POST',
          url: '/api/summarize',
          payload: { id, ...QUICK, mode: 'quick' },
        });
        expect(again.json()).toMatchObject({
          fromCache: leg.redis ? 'kv' : 'memory',
          tldr: honest.json().tldr,
        });
      });

      it('serves a deep summary of a client-supplied url to that url only, never to the next caller for the id', async () => {
        const id = `crossref:10.5555/${leg.name}-deep`;
        const liar = await t.app.inject({
          method: 'POST',
          url: '/api/summarize',
          payload: { id, url: `${pdfs.url}/papers/lie.pdf`, mode: 'deep' },
        });
        expect(liar.statusCode).toBe(200);
        expect(summaryText(liar.json())).toMatch(/cheese/);

        const honest = await t.app.inject({
          method: 'POST',
          url: '/api/summarize',
          payload: { id, url: `${pdfs.url}/papers/specter.pdf`, mode: 'deep' },
        });
        expect(honest.statusCode).toBe(200);
        expect(honest.json()).toMatchObject({ fromCache: false, modeUsed: 'deep' });
        expect(summaryText(honest.json())).not.toMatch(/cheese/);
        expect(summaryText(honest.json())).toMatch(/citation|document|embedding|specter|scidocs/i);

        // An arXiv id leads to the PDF the service derives itself; a url sent beside it changes nothing.
        const arxiv = await t.app.inject({
          method: 'POST',
          url: '/api/summarize',
          payload: { id: 'arxiv:2004.07182', url: `${pdfs.url}/papers/lie.pdf`, mode: 'deep' },
        });
        expect(summaryText(arxiv.json())).not.toMatch(/cheese/);
      });
    },
  );
}
