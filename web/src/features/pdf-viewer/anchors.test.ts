import { describe, expect, it } from 'vitest';
import { anchorAcross, anchorOf, quoteOf, rectsByPage, rectsOnPage } from './anchors';

const page = { left: 100, top: 50, right: 500, bottom: 650 }; // 400 × 600

describe('rectsOnPage', () => {
  it('gives each line one box, as fractions of the page', () => {
    const rects = rectsOnPage(
      [
        { left: 140, top: 110, right: 200, bottom: 122 },
        { left: 204, top: 111, right: 300, bottom: 122 },
        { left: 120, top: 126, right: 180, bottom: 138 },
      ],
      page,
    );
    expect(rects).toHaveLength(2);
    expect(rects[0]!.x).toBeCloseTo(0.1);
    expect(rects[0]!.y).toBeCloseTo(0.1);
    expect(rects[0]!.width).toBeCloseTo(0.4);
    expect(rects[0]!.height).toBeCloseTo(12 / 600);
    expect(rects[1]!.x).toBeCloseTo(0.05);
    expect(rects[1]!.width).toBeCloseTo(0.15);
  });

  it('clips boxes to the page and drops slivers and boxes outside it', () => {
    const rects = rectsOnPage(
      [
        { left: 450, top: 600, right: 560, bottom: 700 },
        { left: 300, top: 300, right: 300.5, bottom: 320 },
        { left: 600, top: 100, right: 700, bottom: 120 },
      ],
      page,
    );
    expect(rects).toHaveLength(1);
    const [rect] = rects;
    expect(rect!.x + rect!.width).toBeLessThanOrEqual(1);
    expect(rect!.y + rect!.height).toBeLessThanOrEqual(1);
    expect(rect!.x).toBeCloseTo(0.875);
  });
});

describe('quoteOf and anchorOf', () => {
  it('joins the lines of a selection', () => {
    expect(quoteOf('  serves results\nin   milliseconds ')).toBe('serves results in milliseconds');
  });

  it('finds the anchor of a PDF annotation only', () => {
    const pdf = { page: 2, quote: 'q', rects: [{ x: 0, y: 0, width: 1, height: 1 }] };
    expect(anchorOf({ pdf })).toBe(pdf);
    expect(anchorOf({})).toBeNull();
  });
});

describe('anchors across a page break', () => {
  const box = (y: number) => ({ x: 0.1, y, width: 0.5, height: 0.02 });

  it('makes one anchor starting on the first page with boxes: later pages name theirs', () => {
    const anchor = anchorAcross('ends here starts there', [
      { page: 4, rects: [] },
      { page: 5, rects: [box(0.9)] },
      { page: 6, rects: [box(0.05), box(0.08)] },
    ]);
    expect(anchor).toEqual({
      page: 5,
      quote: 'ends here starts there',
      rects: [box(0.9), { ...box(0.05), page: 6 }, { ...box(0.08), page: 6 }],
    });
    expect(anchorAcross('nothing', [{ page: 1, rects: [] }])).toBeNull();
  });

  it('groups boxes by the page they are on, a box without a page on the anchor’s', () => {
    const byPage = rectsByPage({
      page: 2,
      quote: 'q',
      rects: [box(0.9), { ...box(0.1), page: 3 }, box(0.95)],
    });
    expect([...byPage.keys()]).toEqual([2, 3]);
    expect(byPage.get(2)).toEqual([box(0.9), box(0.95)]);
    expect(byPage.get(3)).toEqual([box(0.1)]);
  });
});
