import { describe, expect, it } from 'vitest';
import { anchorOf, quoteOf, rectsOnPage } from './anchors';

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
