/**
 * A binary heap ordered by `before(a, b)` (true when `a` comes out first). The summarizer uses it
 * where only the few best of many scores are wanted: building it is linear and each take is
 * logarithmic, where sorting everything is not.
 */
export class Heap<T> {
  private readonly items: T[];

  /** Takes `items` over (they are reordered in place) and heapifies them in linear time. */
  constructor(
    private readonly before: (a: T, b: T) => boolean,
    items: T[] = [],
  ) {
    this.items = items;
    for (let i = (items.length >> 1) - 1; i >= 0; i--) this.siftDown(i, items[i] as T);
  }

  get size(): number {
    return this.items.length;
  }

  /** The first entry, or undefined when the heap is empty. */
  peek(): T | undefined {
    return this.items[0];
  }

  push(entry: T): void {
    const items = this.items;
    let i = items.length;
    items.push(entry);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.before(entry, items[parent] as T)) break;
      items[i] = items[parent] as T;
      i = parent;
    }
    items[i] = entry;
  }

  /** Takes the first entry (the heap must not be empty). */
  pop(): T {
    const items = this.items;
    const top = items[0] as T;
    const last = items.pop() as T;
    if (items.length > 0) this.siftDown(0, last);
    return top;
  }

  /** Pops the first entry and pushes `entry`, in one pass (the heap must not be empty). */
  replaceTop(entry: T): T {
    const top = this.items[0] as T;
    this.siftDown(0, entry);
    return top;
  }

  private siftDown(start: number, entry: T): void {
    const items = this.items;
    const size = items.length;
    let i = start;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= size) break;
      const right = child + 1;
      if (right < size && this.before(items[right] as T, items[child] as T)) child = right;
      if (!this.before(items[child] as T, entry)) break;
      items[i] = items[child] as T;
      i = child;
    }
    items[i] = entry;
  }
}

/**
 * The k-th largest of the scores added (the smallest when fewer than k were): a min-heap of the k
 * largest seen, so no sort of all scores is needed.
 */
export class KthLargest {
  private readonly heap = new Heap<number>((a, b) => a < b);

  constructor(private readonly k: number) {}

  add(score: number): void {
    if (this.heap.size < this.k) this.heap.push(score);
    else if (score > (this.heap.peek() as number)) this.heap.replaceTop(score);
  }

  /** The k-th largest score added, or +Infinity when none was. */
  threshold(): number {
    return this.heap.peek() ?? Number.POSITIVE_INFINITY;
  }
}
