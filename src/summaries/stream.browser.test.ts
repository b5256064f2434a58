/**
 * The summary stream read by a real EventSource in Chromium: after `done` or `error` the browser must
 * not run the summary again. The page is served from the service's own origin, and the service's HTTP
 * server counts what reaches it. Without Chromium the tests are skipped, except in CI, where that is a
 * failure.
 */
import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { connectChromium } from '../../test/support/chromium.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/support/app.js';

const CHROMIUM = '/usr/bin/chromium';
const inCi = process.env.CI === 'true';
const skipReason =
  !existsSync(CHROMIUM) && !inCi
    ? `${CHROMIUM} not installed: summary-stream browser tests skipped`
    : null;
if (skipReason) console.warn(skipReason);

const ABSTRACT =
  'The dominant sequence transduction models are based on complex ' +
  'recurrent or convolutional neural networks. We propose a new simple ' +
  'network architecture, the Transformer, based solely on attention ' +
  'mechanisms. Experiments on two machine translation tasks show these ' +
  'models to be superior in quality while being more parallelizable. Our ' +
  'model achieves 28.4 BLEU on the WMT 2014 English-to-German translation task.';

/** A request to the summary stream as the server saw it. */
interface Arrival {
  lastEventId: string | undefined;
  status: number | null;
}

type Recorded = [name: string, lastEventId: string, data: string];
type PageWindow = { __events: Recorded[]; __source: { readyState: number } };

/** The reconnection delay the tests put in place of the stream's hour, and that their clock stream asks for. */
const RETRY_MS = 200;

/** Opens an EventSource in the page that records every event, and never closes it (as a careless client would). */
async function openEventSource(page: Page, path: string): Promise<void> {
  await page.evaluate((url) => {
    const box = globalThis as unknown as PageWindow & {
      EventSource: new (url: string) => PageWindow['__source'] & {
        addEventListener(
          name: string,
          listener: (event: { lastEventId: string; data?: string }) => void,
        ): void;
      };
    };
    box.__events = [];
    const source = new box.EventSource(url);
    box.__source = source;
    for (const name of ['meta', 'progress', 'tldr', 'bullets', 'tags', 'done', 'error']) {
      // The EventSource's own `error` (the connection closed or failed) is no MessageEvent: no data.
      source.addEventListener(name, (event) => {
        if (event.data !== undefined) box.__events.push([name, event.lastEventId, event.data]);
      });
    }
  }, path);
}

describe.skipIf(skipReason)('summary stream in Chromium', () => {
  let t: TestApp;
  let browser: Browser;
  let base: string;
  const arrivals: Arrival[] = [];

  beforeAll(async () => {
    if (!existsSync(CHROMIUM))
      throw new Error(`In CI the summary-stream browser tests must run: ${CHROMIUM} is missing`);
    t = await buildTestApp();
    t.app.server.on('request', (req, res) => {
      if (!req.url?.startsWith('/api/summarize')) return;
      const arrival: Arrival = {
        lastEventId: req.headers['last-event-id'] as string | undefined,
        status: null,
      };
      arrivals.push(arrival);
      res.on('finish', () => (arrival.status = res.statusCode));
    });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    browser = await connectChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });
  beforeEach(() => {
    arrivals.length = 0;
  });

  const eventsOf = (page: Page) =>
    page.evaluate(() => (globalThis as unknown as PageWindow).__events);
  const readyStateOf = (page: Page) =>
    page.evaluate(() => (globalThis as unknown as PageWindow).__source.readyState);

  /**
   * A clock made of the browser's own reconnection timer: an event stream (answered by the test, not
   * the service) that asks for `retry: RETRY_MS` and ends, so that Chromium reconnects to it every
   * RETRY_MS. Resolves once it has reconnected `times` times, i.e. once `times` such timers have fired.
   */
  async function browserRetryTimersFired(page: Page, times: number): Promise<void> {
    let arrived = 0;
    let fired!: () => void;
    const done = new Promise<void>((resolve) => (fired = resolve));
    await page.route('**/retry-clock', async (route) => {
      arrived += 1;
      if (arrived > times) fired();
      await route.fulfill({
        status: 200,
        contentType: 'text/event-stream',
        body: `retry: ${RETRY_MS}\n\ndata: tick\n\n`,
      });
    });
    await page.evaluate(() => {
      (globalThis as unknown as { __clock: unknown }).__clock = new EventSource('/retry-clock');
    });
    await done;
  }

  it.each([
    [
      'done',
      `/api/summarize?${new URLSearchParams({ title: 'Attention, streamed once', abstract: ABSTRACT })}`,
      ['meta', 'tldr', 'bullets', 'tags', 'done'],
    ],
    ['error', '/api/summarize?mode=sideways&title=x', ['error']],
  ])(
    'runs the summary once: a reconnect after %s is answered 204, and the browser stops for good',
    async (last, path, names) => {
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(`${base}/api/health`);
      // The stream asks for an hour between reconnects (Chromium's own delay is 3 s). Shorten it in the
      // first answer so that Chromium reconnects within the test; the reconnect goes to the service
      // untouched (Chromium adds Last-Event-ID below interception).
      let first = true;
      let askedRetry: string | undefined;
      await page.route('**/api/summarize?*', async (route) => {
        if (!first) return route.continue();
        first = false;
        const response = await route.fetch();
        const text = await response.text();
        askedRetry = /^retry: (\d+)$/m.exec(text)?.[1];
        return route.fulfill({
          response,
          body: text.replace(/^retry: \d+$/m, `retry: ${RETRY_MS}`),
        });
      });
      await openEventSource(page, path);
      await page
        .waitForFunction(
          () => (globalThis as unknown as PageWindow).__source.readyState === 2,
          undefined,
          { timeout: 15_000 },
        )
        .catch(async (error: Error) => {
          throw new Error(
            `${error.message}: ${JSON.stringify({ arrivals, events: await eventsOf(page) })}`,
          );
        });
      expect(askedRetry).toBe('3600000');
      const events = await eventsOf(page);
      expect(events.map(([name]) => name)).toEqual(names);
      // Every event has an id; the last one says the stream is over.
      expect(events.every(([, id]) => id !== '')).toBe(true);
      expect(events.at(-1)).toEqual([last, 'end', expect.any(String)]);
      expect(arrivals).toEqual([
        { lastEventId: undefined, status: 200 },
        { lastEventId: 'end', status: 204 },
      ]);
      // Closed (2) for good: after two more of the browser's reconnection timers have fired, nothing
      // more has reached the service and nothing more was read.
      await browserRetryTimersFired(page, 2);
      expect(arrivals).toHaveLength(2);
      expect(await readyStateOf(page)).toBe(2);
      expect(await eventsOf(page)).toHaveLength(events.length);
      await context.close();
    },
  );
});
