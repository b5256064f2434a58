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
const skipReason = !existsSync(CHROMIUM) && !inCi ? `${CHROMIUM} not installed: summary-stream browser tests skipped` : null;
if (skipReason) console.warn(skipReason);

const ABSTRACT =
  'The dominant sequence transduction models are based on complex recurrent or convolutional neural networks. We propose a new simple network architecture, the Transformer, based solely on attention mechanisms. Experiments on two machine translation tasks show these models to be superior in quality while being more parallelizable. Our model achieves 28.4 BLEU on the WMT 2014 English-to-German translation task.';

/** A request to the summary stream as the server saw it. */
interface Arrival {
  lastEventId: string | undefined;
  status: number | null;
}

type Recorded = [name: string, lastEventId: string, data: string];
type PageWindow = { __events: Recorded[]; __source: { readyState: number } };

/** Opens an EventSource in the page that records every event, and never closes it (as a careless client would). */
async function openEventSource(page: Page, path: string): Promise<void> {
  await page.evaluate((url) => {
    const box = globalThis as unknown as PageWindow & { EventSource: new (url: string) => PageWindow['__source'] & { addEventListener(name: string, listener: (event: { lastEventId: string; data?: string }) => void): void } };
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
    if (!existsSync(CHROMIUM)) throw new Error(`In CI the summary-stream browser tests must run: ${CHROMIUM} is missing`);
    t = await buildTestApp();
    t.app.server.on('request', (req, res) => {
      if (!req.url?.startsWith('/api/summarize')) return;
      const arrival: Arrival = { lastEventId: req.headers['last-event-id'] as string | undefined, status: null };
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

  const eventsOf = (page: Page) => page.evaluate(() => (globalThis as unknown as PageWindow).__events);
  const readyStateOf = (page: Page) => page.evaluate(() => (globalThis as unknown as PageWindow).__source.readyState);

  it.each([
    ['done', `/api/summarize?${new URLSearchParams({ title: 'Attention, streamed once', abstract: ABSTRACT })}`],
    ['error', '/api/summarize?mode=sideways&title=x'],
  ])('runs the summary once: the browser does not reconnect after %s', async (last, path) => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${base}/api/health`);
    await openEventSource(page, path);
    await page.waitForFunction((name) => (globalThis as unknown as PageWindow).__events.some(([event]) => event === name), last, { timeout: 15_000 });
    const events = await eventsOf(page);
    // Every event has an id; the last one says the stream is over.
    expect(events.every(([, id]) => id !== '')).toBe(true);
    expect(events.at(-1)).toEqual([last, 'end', expect.any(String)]);
    // Chromium's own reconnection delay is 3 s; the stream asks for an hour. Watch past the 3 s.
    await page.waitForTimeout(4500);
    expect(arrivals).toEqual([{ lastEventId: undefined, status: 200 }]);
    expect((await eventsOf(page)).length).toBe(events.length);
    await context.close();
  });

  it('answers a reconnect after a finished stream 204, and the browser stops', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${base}/api/health`);
    // Shorten the delay the first stream asks for (an hour) so that Chromium reconnects within the
    // test; the reconnect goes to the service untouched (Chromium adds Last-Event-ID below interception).
    let first = true;
    await page.route('**/api/summarize?*', async (route) => {
      if (!first) return route.continue();
      first = false;
      const response = await route.fetch();
      const body = (await response.text()).replace(/^retry: \d+$/m, 'retry: 200');
      return route.fulfill({ response, body });
    });
    await openEventSource(page, `/api/summarize?${new URLSearchParams({ title: 'Attention, reconnected', abstract: ABSTRACT })}`);
    await page
      .waitForFunction(() => (globalThis as unknown as PageWindow).__source.readyState === 2, undefined, { timeout: 15_000 })
      .catch(async (error: Error) => {
        throw new Error(`${error.message}: ${JSON.stringify({ arrivals, events: await eventsOf(page) })}`);
      });
    expect((await eventsOf(page)).map(([name]) => name)).toEqual(['meta', 'tldr', 'bullets', 'tags', 'done']);
    expect(arrivals).toEqual([
      { lastEventId: undefined, status: 200 },
      { lastEventId: 'end', status: 204 },
    ]);
    // Closed (2) for good: nothing more arrives.
    await page.waitForTimeout(1000);
    expect(arrivals).toHaveLength(2);
    expect(await readyStateOf(page)).toBe(2);
    await context.close();
  });
});
