import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import {
  auditCombinations,
  launchChromium,
  seriousA11yViolations,
  webSkipReason,
} from './web-browser.js';

describe('auditCombinations', () => {
  it('checks each viewport and each colour scheme once by default', () => {
    expect(auditCombinations({})).toEqual([
      ['mobile', 'light'],
      ['desktop', 'dark'],
    ]);
  });

  it('checks all four combinations with WEB_AUDIT=all', () => {
    expect(auditCombinations({ WEB_AUDIT: 'all' })).toEqual([
      ['mobile', 'light'],
      ['mobile', 'dark'],
      ['desktop', 'light'],
      ['desktop', 'dark'],
    ]);
  });
});

// The journeys expect no findings: this shows the check, as configured, finds what it should.
describe.skipIf(webSkipReason)('seriousA11yViolations (Chromium)', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('names the serious and critical findings of a page, with their elements, and none of a clean one', async () => {
    const page = await browser.newPage();
    try {
      await page.setContent(`<!doctype html><html lang="en"><head><title>Findings</title></head><body><main>
        <h1>Findings</h1>
        <img id="no-alt" src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">
        <button id="no-name"></button>
        <p id="faint" style="color:#777;background:#888">Hard to read</p>
      </main></body></html>`);
      const found = await seriousA11yViolations(page);
      expect(Object.fromEntries(found.map((finding) => [finding.id, finding.targets]))).toEqual({
        'image-alt': ['#no-alt'],
        'button-name': ['#no-name'],
        'color-contrast': ['#faint'],
      });
      expect(found.map((finding) => finding.impact).sort()).toEqual([
        'critical',
        'critical',
        'serious',
      ]);

      await page.setContent(
        '<!doctype html><html lang="en"><head><title>Clean</title></head><body><main><h1>Clean</h1><p>Easy to read.</p></main></body></html>',
      );
      expect(await seriousA11yViolations(page)).toEqual([]);
    } finally {
      await page.close();
    }
  });
});
