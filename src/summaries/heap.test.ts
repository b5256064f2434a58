import { describe, expect, it } from 'vitest';
import { Heap, KthLargest } from './heap.js';

/** Deterministic pseudo-random numbers (a linear congruential generator), with repeats. */
function numbers(count: number, seed = 7): number[] {
  const out: number[] = [];
  let state = seed;
  for (let i = 0; i < count; i++) {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    out.push(state % 97);
  }
  return out;
}

describe('Heap', () => {
  it('gives its entries in the order of a sort, whether built at once or pushed one by one', () => {
    const values = numbers(500);
    const sorted = [...values].sort((a, b) => a - b);
    const built = new Heap<number>((a, b) => a < b, [...values]);
    const pushed = new Heap<number>((a, b) => a < b);
    for (const value of values) pushed.push(value);
    for (const heap of [built, pushed]) {
      const out: number[] = [];
      while (heap.size > 0) out.push(heap.pop());
      expect(out).toEqual(sorted);
    }
  });

  it('orders by any comparison (here: larger score first, then earlier position)', () => {
    const entries = numbers(200).map((score, position) => ({ score, position }));
    const heap = new Heap<{ score: number; position: number }>(
      (a, b) => a.score > b.score || (a.score === b.score && a.position < b.position),
      [...entries],
    );
    const out: number[] = [];
    while (heap.size > 0) out.push(heap.pop().position);
    expect(out).toEqual(
      [...entries]
        .sort((a, b) => b.score - a.score || a.position - b.position)
        .map((entry) => entry.position),
    );
  });

  it('stays ordered through pushes, pops and replaceTop mixed', () => {
    const heap = new Heap<number>((a, b) => a < b);
    const reference: number[] = [];
    numbers(300, 3).forEach((value, i) => {
      if (i % 3 === 2 && reference.length > 0) {
        reference.sort((a, b) => a - b);
        expect(heap.replaceTop(value)).toBe(reference.shift());
        reference.push(value);
      } else if (i % 5 === 4 && reference.length > 0) {
        reference.sort((a, b) => a - b);
        expect(heap.pop()).toBe(reference.shift());
      } else {
        heap.push(value);
        reference.push(value);
      }
      expect(heap.peek()).toBe(Math.min(...reference));
    });
  });

  it('is empty without entries', () => {
    const heap = new Heap<number>((a, b) => a < b);
    expect(heap.size).toBe(0);
    expect(heap.peek()).toBeUndefined();
  });
});

describe('KthLargest', () => {
  it('is the k-th largest score added, or the smallest when fewer than k were', () => {
    const values = numbers(400, 11);
    for (const k of [1, 5, 48]) {
      const top = new KthLargest(k);
      for (const value of values) top.add(value);
      expect(top.threshold()).toBe([...values].sort((a, b) => b - a)[k - 1]);
    }
    const few = new KthLargest(10);
    for (const value of [3, 1, 2]) few.add(value);
    expect(few.threshold()).toBe(1);
  });

  it('is +Infinity when nothing was added', () => {
    expect(new KthLargest(4).threshold()).toBe(Number.POSITIVE_INFINITY);
  });
});
