import { describe, expect, it } from 'vitest';
import { layoutPageText, type PositionedText } from './pdfjs-layout.js';

const PAGE_WIDTH = 600;
const SIZE = 10;

function line(text: string, x: number, y: number, width = text.length * 5): PositionedText {
  return { text, x, y, width, fontSize: SIZE };
}

/** A page with a centred title over two columns of `rows` lines each, y growing upwards as in PDF. */
function twoColumnPage(rows: number): PositionedText[] {
  const items: PositionedText[] = [
    line('A Title That Spans Both Columns Of The Page', 150, 760, 300),
  ];
  for (let row = 0; row < rows; row++) {
    const y = 700 - row * 12;
    items.push(line(`left ${row} words words`, 50, y, 240));
    items.push(line(`right ${row} words words`, 320, y, 240));
  }
  return items;
}

describe('layoutPageText', () => {
  it('reads a two-column page column by column, the title first', () => {
    const text = layoutPageText(twoColumnPage(20), PAGE_WIDTH);
    const lines = text.split('\n').filter(Boolean);
    expect(lines[0]).toBe('A Title That Spans Both Columns Of The Page');
    const lastLeft = lines.indexOf('left 19 words words');
    const firstRight = lines.indexOf('right 0 words words');
    expect(lastLeft).toBeGreaterThan(0);
    expect(firstRight).toBeGreaterThan(lastLeft);
  });

  it('reads a single-column page line by line, joining items on one baseline', () => {
    const items = [
      line('Hello', 50, 700, 25),
      line('world.', 80, 700, 30),
      line('Next line here.', 50, 688),
    ];
    expect(layoutPageText(items, PAGE_WIDTH)).toBe('Hello world.\nNext line here.');
  });

  it('separates paragraphs at a large vertical gap', () => {
    const items = [line('First paragraph.', 50, 700), line('Second paragraph.', 50, 660)];
    expect(layoutPageText(items, PAGE_WIDTH)).toBe('First paragraph.\n\nSecond paragraph.');
  });

  it('drops small marks without letters but keeps small capitals', () => {
    const items = [
      line('We propose S', 50, 700, 60),
      { text: 'PECTER', x: 110, y: 700, width: 30, fontSize: 7 },
      line(', a model.', 140, 700, 45),
      { text: '1', x: 186, y: 704, width: 3, fontSize: 6 },
      line('More text follows here and it is long enough.', 50, 688),
    ];
    expect(layoutPageText(items, PAGE_WIDTH).split('\n')[0]).toBe('We propose SPECTER, a model.');
  });
});
