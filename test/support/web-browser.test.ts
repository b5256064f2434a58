import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import {
  auditCombinations,
  auditSchemes,
  launchChromium,
  seriousA11yViolations,
  webSkipReason,
} from './web-browser.js';

describe('auditCombinations', () => {
  const pages = [
    'signup',
    'signin',
    'library',
    'alerts-list',
    'profile',
    'analytics',
    'members-owner',
  ];

  it('checks a page at one combination by default, always the same one for its name', () => {
    for (const name of pages) {
      const [only, ...others] = auditCombinations(name, {});
      expect(others, name).toEqual([]);
      expect(auditCombinations(name, { CI: 'true' }), name).toEqual([only]);
    }
  });

  it('spreads the pages over every viewport and both schemes by default', () => {
    const seen = new Set(pages.map((name) => auditCombinations(name, {})[0]!.join(' ')));
    expect([...seen].sort()).toEqual([
      'desktop dark',
      'desktop light',
      'mobile dark',
      'mobile light',
    ]);
  });

  it('checks all four combinations with WEB_AUDIT=all', () => {
    expect(auditCombinations('signup', { WEB_AUDIT: 'all' })).toEqual([
      ['mobile', 'light'],
      ['mobile', 'dark'],
      ['desktop', 'light'],
      ['desktop', 'dark'],
    ]);
  });
});

describe('auditSchemes', () => {
  it('checks one scheme by default, both over the pages, and both for each with WEB_AUDIT=all', () => {
    const names = ['references', 'suggestions', 'search-result-facts', 'search-filters-open'];
    for (const name of names) expect(auditSchemes(name, {})).toHaveLength(1);
    expect(new Set(names.flatMap((name) => auditSchemes(name, {})))).toEqual(
      new Set(['light', 'dark']),
    );
    expect(auditSchemes('references', { WEB_AUDIT: 'all' })).toEqual(['light', 'dark']);
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
