/**
 * The interop measurement (test/interop/measure.ts, `npm run interop` on every fixture) on a small
 * subset, held to floors: today's figures on this subset, rounded down, so that a change that loses
 * more of a record fails here. Raise the floors (lower the ceilings) as fixes land; docs/testing.md,
 * "Interop figures", has the whole set's figures.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../support/app.js';
import { loadInteropFixtures } from './fixtures.js';
import { measureInterop, type InteropFigures } from './measure.js';

/** The first items of each set (the CSL test suite's humans, Zotero's RIS and BibTeX cases, Better BibTeX's). */
const SUBSET = { humans: 8, zoteroRis: 2, zoteroBibtex: 2, betterBibtex: 1 };

/**
 * Percentages at least this high, counts of changed author lists at most this high: the subset's
 * figures on 2026-11-29 (branch interop2, after the structured record's fixes), rounded down.
 * citeproc-js on our own export gives the cite route's text for every reference (a difference there
 * is the route's, not the data's).
 */
const FLOORS = {
  referencesEqual: 100, // 60 of 60 references, 10 real-shaped items × 6 styles (was 37)
  itemsRightInAllStyles: 100, // 10 of 10 (was 6)
  citeEqualsOwnExport: 100,
  cslItemsUnchanged: 100, // 14 of 14 (was 7: items without a title were refused)
  zoteroRisFields: 100, // 17 of 17 (was 12)
  zoteroBibtexFields: 100, // 20 of 20 (was 17)
  // 12 of 13 (was 9): the one left is the fixture's (docs/testing.md, ACM's `location`).
  betterBibtexFields: 92,
  authorListsChanged: { csljson: 0, bibtex: 0, ris: 0 },
  // Entries of an export that the import does not take back (a ceiling, as author lists).
  notReimported: { csljson: 0, bibtex: 0, ris: 0 },
};
// The whole set (docs/testing.md, "Interop figures"): CSL-JSON 1,155 / 1,168 items unchanged and
// the 13 others changed only as documented (documented.ts); author lists changed on re-import
// 0 / 0 / 1 (the RIS one documented); 1 RIS entry not imported again (an untitled document: RIS's
// GEN says nothing more); the subset above was already at its floors.

describe('interop: records through import → store → export and cite (subset)', () => {
  let t: TestApp;
  let figures: InteropFigures;
  beforeAll(async () => {
    // One request at a time: one worker warms the styles' engines once, not once per worker.
    t = await buildTestApp({
      env: { RATE_LIMIT_AUTHENTICATED_PER_HOUR: '1000000', WORKER_THREADS: '1' },
    });
    figures = await measureInterop(t.app, loadInteropFixtures(SUBSET));
  }, 180_000);
  afterAll(async () => t?.close());

  it('cites as citeproc-js does from the original items, no worse than today', () => {
    expect(figures.cite.references.total).toBeGreaterThan(0);
    expect(figures.cite.references.percent).toBeGreaterThanOrEqual(FLOORS.referencesEqual);
    expect(figures.cite.itemsRightInAllStyles.percent).toBeGreaterThanOrEqual(
      FLOORS.itemsRightInAllStyles,
    );
    expect(figures.cite.citeEqualsOwnExport.percent).toBeGreaterThanOrEqual(
      FLOORS.citeEqualsOwnExport,
    );
  });

  it('gives CSL-JSON back unchanged, no worse than today', () => {
    expect(figures.cslRoundTrip.itemsUnchanged.percent).toBeGreaterThanOrEqual(
      FLOORS.cslItemsUnchanged,
    );
  });

  it('reads RIS and BibTeX as Zotero expects, no worse than today', () => {
    expect(figures.zotero['zotero-ris'].fields.percent).toBeGreaterThanOrEqual(
      FLOORS.zoteroRisFields,
    );
    expect(figures.zotero['zotero-bibtex'].fields.percent).toBeGreaterThanOrEqual(
      FLOORS.zoteroBibtexFields,
    );
    expect(figures.zotero['better-bibtex'].fields.percent).toBeGreaterThanOrEqual(
      FLOORS.betterBibtexFields,
    );
  });

  it('reads its own exports back with no more author lists changed, or entries left out, than today', () => {
    for (const format of ['csljson', 'bibtex', 'ris'] as const) {
      const { authorListsChanged, authorListsChangedAsDocumented } = figures.reimport[format];
      expect(authorListsChanged, format).toBeLessThanOrEqual(FLOORS.authorListsChanged[format]);
      // Whatever changes is documented as the format's limit, never an undocumented loss.
      expect(authorListsChanged - authorListsChangedAsDocumented, format).toBe(0);
      expect(figures.reimport[format].notReimported, format).toBeLessThanOrEqual(
        FLOORS.notReimported[format],
      );
    }
  });

  it('counts an item changed only as documented apart, never as unchanged', () => {
    const { itemsUnchanged, itemsChangedAsDocumented } = figures.cslRoundTrip;
    expect(itemsUnchanged.right + itemsChangedAsDocumented).toBeLessThanOrEqual(
      itemsUnchanged.total,
    );
  });
});
