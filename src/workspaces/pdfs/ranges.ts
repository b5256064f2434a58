/**
 * Single byte ranges of RFC 9110 §14: `bytes=first-last`, `bytes=first-` and `bytes=-suffix`. Several
 * ranges in one request are answered with the whole file (allowed, and what PDF viewers cope with);
 * a range that starts past the end is unsatisfiable (416).
 */
import type { ByteRange } from '../../platform/blob-store.js';

export type RangeAnswer =
  { kind: 'whole' } | { kind: 'partial'; range: ByteRange } | { kind: 'unsatisfiable' };

const SINGLE_RANGE = /^bytes=(\d*)-(\d*)$/;

export function parseRange(header: string | undefined, size: number): RangeAnswer {
  if (!header) return { kind: 'whole' };
  const match = SINGLE_RANGE.exec(header.replace(/\s+/g, ''));
  // Not a single bytes range (another unit, several ranges, nonsense): ignored, as the RFC allows.
  if (!match) return { kind: 'whole' };
  const [, first = '', last = ''] = match;
  if (first === '' && last === '') return { kind: 'whole' };
  if (first === '') {
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return { kind: 'unsatisfiable' };
    return { kind: 'partial', range: { start: Math.max(0, size - suffix), end: size - 1 } };
  }
  const start = Number(first);
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  if (!Number.isSafeInteger(start) || start >= size) return { kind: 'unsatisfiable' };
  if (last !== '' && Number(last) < start) return { kind: 'whole' };
  return { kind: 'partial', range: { start, end } };
}
