/**
 * Reading order for text items positioned on a PDF page (as pdf.js reports them): items are grouped
 * into lines, a two-column page is detected by the vertical gutter that (almost) no line crosses, and
 * the page is read band by band: the left column, then the right column, with full-width items
 * (title, wide figures, page numbers) between bands. Pure; no pdf.js types.
 */

export interface PositionedText {
  text: string;
  /** Left edge, PDF units. */
  x: number;
  /** Baseline, PDF units, growing upwards. */
  y: number;
  width: number;
  fontSize: number;
}

interface Fragment {
  text: string;
  x0: number;
  x1: number;
  y: number;
  fontSize: number;
}

/** Items whose baselines differ by less than this share of the font size are on one line. */
const SAME_LINE_TOLERANCE = 0.45;
/** A horizontal gap wider than this many font sizes separates two fragments (e.g. a column gutter). */
const FRAGMENT_GAP = 1.0;
/** A vertical gap wider than this many font sizes between lines starts a new paragraph. */
const PARAGRAPH_GAP = 1.75;

function groupIntoLines(items: PositionedText[]): PositionedText[][] {
  const sorted = [...items].sort((a, b) => b.y - a.y || a.x - b.x);
  const lines: PositionedText[][] = [];
  let current: PositionedText[] = [];
  let lineY = Number.NaN;
  let lineSize = 0;
  for (const item of sorted) {
    if (
      current.length > 0 &&
      Math.abs(item.y - lineY) <= SAME_LINE_TOLERANCE * Math.max(lineSize, item.fontSize)
    ) {
      current.push(item);
      continue;
    }
    if (current.length > 0) lines.push(current);
    current = [item];
    lineY = item.y;
    lineSize = item.fontSize;
  }
  if (current.length > 0) lines.push(current);
  return lines;
}

function joinItems(items: PositionedText[]): string {
  let text = '';
  let previousEnd = Number.NaN;
  for (const item of items) {
    const gap = item.x - previousEnd;
    if (text && !/\s$/.test(text) && !/^\s/.test(item.text) && gap > 0.12 * item.fontSize)
      text += ' ';
    text += item.text;
    previousEnd = item.x + item.width;
  }
  return text.replace(/\s+/g, ' ').trim();
}

function splitIntoFragments(line: PositionedText[]): Fragment[] {
  const items = [...line].sort((a, b) => a.x - b.x);
  const fragments: Fragment[] = [];
  let group: PositionedText[] = [];
  let groupEnd = Number.NEGATIVE_INFINITY;
  const close = (): void => {
    if (group.length === 0) return;
    const text = joinItems(group);
    if (text) {
      const first = group[0] as PositionedText;
      fragments.push({
        text,
        x0: first.x,
        x1: Math.max(...group.map((item) => item.x + item.width)),
        y: first.y,
        fontSize: Math.max(...group.map((item) => item.fontSize)),
      });
    }
    group = [];
  };
  for (const item of items) {
    if (group.length > 0 && item.x - groupEnd > FRAGMENT_GAP * item.fontSize) close();
    group.push(item);
    groupEnd = group.length === 1 ? item.x + item.width : Math.max(groupEnd, item.x + item.width);
  }
  close();
  return fragments;
}

/** The x of a gutter that splits the page into two columns, or undefined for a single-column page. */
function findGutter(fragments: Fragment[], pageWidth: number): number | undefined {
  if (fragments.length < 8) return undefined;
  const from = pageWidth * 0.3;
  const to = pageWidth * 0.7;
  let best: { x: number; crossing: number; balance: number } | undefined;
  for (let x = from; x <= to; x += 1) {
    let crossing = 0;
    let left = 0;
    let right = 0;
    for (const fragment of fragments) {
      if (fragment.x1 <= x) left++;
      else if (fragment.x0 >= x) right++;
      else crossing++;
    }
    const balance = Math.min(left, right);
    if (
      !best ||
      crossing < best.crossing ||
      (crossing === best.crossing && balance > best.balance)
    ) {
      best = { x, crossing, balance };
    }
  }
  if (!best) return undefined;
  const total = fragments.length;
  if (best.balance < 4 || best.balance < total * 0.15 || best.crossing > total * 0.3)
    return undefined;
  return best.x;
}

function renderLines(fragments: Fragment[], out: string[]): void {
  let previous: Fragment | undefined;
  let line = '';
  for (const fragment of fragments) {
    if (
      previous &&
      Math.abs(fragment.y - previous.y) <=
        SAME_LINE_TOLERANCE * Math.max(previous.fontSize, fragment.fontSize)
    ) {
      line += ` ${fragment.text}`;
      continue;
    }
    if (line) out.push(line);
    if (
      previous &&
      previous.y - fragment.y > PARAGRAPH_GAP * Math.max(previous.fontSize, fragment.fontSize)
    ) {
      out.push('');
    }
    line = fragment.text;
    previous = fragment;
  }
  if (line) out.push(line);
}

const byReadingOrder = (a: Fragment, b: Fragment): number => b.y - a.y || a.x0 - b.x0;

/**
 * Small text without letters (footnote and affiliation markers "1", "∗", "†,‡") is left out. Small
 * letters stay: small capitals ("S" + "PECTER") are set in a smaller size on the same baseline.
 */
const SMALL_TEXT = 0.8;
const NO_LETTERS = /^[^\p{L}]+$/u;

/** The font size carrying most characters on the page. */
function dominantFontSize(items: PositionedText[]): number {
  const weight = new Map<number, number>();
  for (const item of items) {
    const size = Math.round(item.fontSize * 2) / 2;
    weight.set(size, (weight.get(size) ?? 0) + item.text.length);
  }
  let best = 0;
  let bestWeight = -1;
  for (const [size, chars] of weight) {
    if (chars > bestWeight) {
      best = size;
      bestWeight = chars;
    }
  }
  return best;
}

/** The text of one page in reading order: lines separated by "\n", paragraphs by a blank line. */
export function layoutPageText(items: PositionedText[], pageWidth: number): string {
  const visible = items.filter((item) => item.text.trim().length > 0 && item.fontSize > 0);
  const bodySize = dominantFontSize(visible);
  const usable = visible.filter(
    (item) => item.fontSize >= bodySize * SMALL_TEXT || !NO_LETTERS.test(item.text),
  );
  const fragments = groupIntoLines(usable).flatMap(splitIntoFragments);
  const gutter = findGutter(fragments, pageWidth);
  const out: string[] = [];
  if (gutter === undefined) {
    renderLines(fragments.sort(byReadingOrder), out);
    return out.join('\n');
  }
  let left: Fragment[] = [];
  let right: Fragment[] = [];
  const flushBand = (): void => {
    if (left.length > 0) renderLines(left.sort(byReadingOrder), out);
    if (left.length > 0 && right.length > 0) out.push('');
    if (right.length > 0) renderLines(right.sort(byReadingOrder), out);
    if (left.length > 0 || right.length > 0) out.push('');
    left = [];
    right = [];
  };
  // Only text reaching well into both columns spans them; a line that pokes over the gutter a little
  // (or a short centred item) belongs to the side holding most of it.
  const reach = pageWidth * 0.12;
  for (const fragment of fragments.sort(byReadingOrder)) {
    const spans = fragment.x0 < gutter - reach && fragment.x1 > gutter + reach;
    if (spans) {
      flushBand();
      renderLines([fragment], out);
      out.push('');
    } else if ((fragment.x0 + fragment.x1) / 2 <= gutter) left.push(fragment);
    else right.push(fragment);
  }
  flushBand();
  return out
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
