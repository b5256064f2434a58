/**
 * The draft store's rules: given back only to the user who typed it, forgotten when stale, bounded in
 * size and number, a field left as it was is no draft, and sign-out forgets them all. (The Web
 * Storage interface is given by a small in-memory Storage: Node has no sessionStorage.)
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  clearAllDrafts,
  draftStorageKey,
  DRAFT_MAX_AGE_MS,
  DRAFT_MAX_CHARS,
  DRAFTS_MAX,
  readDraft,
  removeDraft,
  writeDraft,
} from './drafts';

class MemoryStorage implements Storage {
  private readonly items = new Map<string, string>();
  get length(): number {
    return this.items.size;
  }
  clear(): void {
    this.items.clear();
  }
  getItem(key: string): string | null {
    return this.items.get(key) ?? null;
  }
  key(index: number): string | null {
    return [...this.items.keys()][index] ?? null;
  }
  removeItem(key: string): void {
    this.items.delete(key);
  }
  setItem(key: string, value: string): void {
    this.items.set(key, String(value));
  }
}

let store: MemoryStorage;
beforeEach(() => {
  store = new MemoryStorage();
  Object.defineProperty(globalThis, 'sessionStorage', { value: store, configurable: true });
});
afterEach(() => {
  Reflect.deleteProperty(globalThis, 'sessionStorage');
});

const key = draftStorageKey('/workspaces/w1', 'annotation:new:r1');

describe('drafts', () => {
  it('gives a draft back to the user who typed it, and to no one else', () => {
    writeDraft(key, 'user-a', 'half a thought', '');
    expect(readDraft(key, 'user-a')).toBe('half a thought');
    expect(readDraft(key, null)).toBeNull();
    expect(readDraft(key, 'user-b')).toBeNull();
    // Another user's draft is removed once seen, so it cannot come back to its writer either.
    expect(readDraft(key, 'user-a')).toBeNull();
  });

  it('keeps nothing for a field left as it was, or for a visitor', () => {
    writeDraft(key, 'user-a', 'Ada', 'Ada');
    expect(store.length).toBe(0);
    writeDraft(key, null, 'typed signed out', '');
    expect(store.length).toBe(0);
    writeDraft(key, 'user-a', 'changed', 'Ada');
    writeDraft(key, 'user-a', 'Ada', 'Ada');
    expect(readDraft(key, 'user-a')).toBeNull();
  });

  it('forgets a stale draft, and a malformed one', () => {
    const then = Date.now();
    writeDraft(key, 'user-a', 'old text', '', then);
    expect(readDraft(key, 'user-a', then + DRAFT_MAX_AGE_MS + 1)).toBeNull();
    expect(store.length).toBe(0);
    store.setItem(key, '{"owner":"user-a"');
    expect(readDraft(key, 'user-a')).toBeNull();
  });

  it(`keeps at most ${DRAFT_MAX_CHARS} characters of a draft and ${DRAFTS_MAX} drafts, the oldest going first`, () => {
    writeDraft(key, 'user-a', 'x'.repeat(DRAFT_MAX_CHARS + 50), '');
    expect(readDraft(key, 'user-a')).toHaveLength(DRAFT_MAX_CHARS);
    removeDraft(key);
    const start = Date.now();
    for (let index = 0; index < DRAFTS_MAX + 5; index += 1)
      writeDraft(
        draftStorageKey('/profile', `field-${index}`),
        'user-a',
        `text ${index}`,
        '',
        start + index,
      );
    expect(store.length).toBe(DRAFTS_MAX);
    expect(readDraft(draftStorageKey('/profile', 'field-0'), 'user-a')).toBeNull();
    expect(readDraft(draftStorageKey('/profile', `field-${DRAFTS_MAX + 4}`), 'user-a')).toBe(
      `text ${DRAFTS_MAX + 4}`,
    );
  });

  it('clears every draft (sign-out) and leaves the rest of the storage alone', () => {
    writeDraft(key, 'user-a', 'one', '');
    writeDraft(draftStorageKey('/profile', 'profile:bio'), 'user-a', 'two', '');
    store.setItem('rw-something-else', 'kept');
    clearAllDrafts();
    expect(store.length).toBe(1);
    expect(store.getItem('rw-something-else')).toBe('kept');
  });

  it('works without sessionStorage (drafts are simply not kept)', () => {
    Reflect.deleteProperty(globalThis, 'sessionStorage');
    expect(() => writeDraft(key, 'user-a', 'text', '')).not.toThrow();
    expect(readDraft(key, 'user-a')).toBeNull();
    expect(() => clearAllDrafts()).not.toThrow();
  });
});
