/**
 * The API reference (Swagger UI at /api/docs/) in headless Chromium under the page policy it is sent
 * with: it still draws the operations and breaks no rule of the policy, and another origin cannot
 * frame it. Without Chromium the test is skipped, except in CI, where that is a failure.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/support/app.js';
import { connectChromium } from '../../test/support/chromium.js';
import { CHROMIUM_PATH } from '../../test/support/skip-reasons.js';

const inCi = process.env.CI === 'true' || process.env.CI === '1';
const skipReason =
  !existsSync(CHROMIUM_PATH) && !inCi
    ? `${CHROMIUM_PATH} not installed: API reference browser test skipped`
    : null;
if (skipReason) console.warn(skipReason);

describe.skipIf(skipReason)('the API reference in Chromium', () => {
  let t: TestApp;
  let browser: Browser;
  let base: string;
  let framer: Server;
  let framerBase: string;

  beforeAll(async () => {
    t = await buildTestApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    // Another origin (another port) whose page frames the reference.
    framer = createServer((_request, response) => {
      response
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end(`<!doctype html><iframe src="${base}/api/docs/"></iframe>`);
    });
    await new Promise<void>((resolve) => framer.listen(0, '127.0.0.1', resolve));
    framerBase = `http://127.0.0.1:${(framer.address() as AddressInfo).port}`;
    browser = await connectChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => framer?.close(resolve));
    await t?.close();
  });

  it("draws the operations without breaking the policy, and stays out of another origin's frame", async () => {
    const page = await browser.newPage();
    const violations: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
    });
    await page.goto(`${base}/api/docs/`);
    await expect.poll(() => page.locator('.opblock').count()).toBeGreaterThan(10);
    expect(violations).toEqual([]);

    let blocked = '';
    page.on('console', (message) => {
      if (/frame-ancestors|X-Frame-Options/i.test(message.text())) blocked = message.text();
    });
    await page.goto(framerBase);
    await expect.poll(() => blocked).toMatch(/frame-ancestors 'none'|X-Frame-Options/);
    const frame = page.frames().find((candidate) => candidate !== page.mainFrame());
    expect(
      (await frame
        ?.locator('.opblock')
        .count()
        .catch(() => 0)) ?? 0,
    ).toBe(0);
    await page.close();
  });
});
