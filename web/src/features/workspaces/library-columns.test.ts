import { describe, expect, it } from 'vitest';
import {
  DEFAULT_COLUMNS,
  MAX_WIDTH,
  MIN_WIDTH,
  parseColumnSettings,
  visibleColumns,
  withColumnShown,
  withColumnWidth,
} from './library-columns';

describe('the library columns a user chose', () => {
  it('reads back what was stored', () => {
    const chosen = withColumnWidth(withColumnShown(DEFAULT_COLUMNS, 'tags', false), 'venue', 222);
    const read = parseColumnSettings(JSON.stringify(chosen));
    expect(read.hidden).toEqual(['type', 'tags']);
    expect(read.widths.venue).toBe(222);
    expect(visibleColumns(read).map((column) => column.id)).toEqual([
      'title',
      'key',
      'author',
      'year',
      'venue',
      'pdf',
      'added',
    ]);
  });

  it('shows a hidden column again, and never hides the title', () => {
    const shown = withColumnShown(DEFAULT_COLUMNS, 'type', true);
    expect(shown.hidden).toEqual([]);
    const read = parseColumnSettings(JSON.stringify({ hidden: ['title', 'pdf', 'pdf'] }));
    expect(read.hidden).toEqual(['pdf']);
    expect(visibleColumns(read)[0]!.id).toBe('title');
  });

  it('keeps widths within bounds and drops what it does not know', () => {
    const read = parseColumnSettings(
      JSON.stringify({
        hidden: ['nonsense', 42],
        widths: { year: 1, venue: 10_000, title: 500, nonsense: 90, author: 'wide', pdf: null },
      }),
    );
    expect(read.hidden).toEqual([]);
    expect(read.widths.year).toBe(MIN_WIDTH);
    expect(read.widths.venue).toBe(MAX_WIDTH);
    expect(read.widths.author).toBe(DEFAULT_COLUMNS.widths.author);
    expect(read.widths.pdf).toBe(DEFAULT_COLUMNS.widths.pdf);
    expect(Object.keys(read.widths).sort()).toEqual(Object.keys(DEFAULT_COLUMNS.widths).sort());
  });

  it('falls back to the defaults for nothing, broken JSON or a value of another shape', () => {
    for (const text of [null, '', '{', 'null', '"columns"', '[1,2]'])
      expect(parseColumnSettings(text)).toEqual(DEFAULT_COLUMNS);
  });
});
