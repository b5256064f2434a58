/**
 * The summary cache's in-process layer: a hit hands out one decoded, frozen value (no parsing per
 * hit), the shared store still comes first, and memory stays bounded.
 */
import { describe, expect, it, vi } from 'vitest';
import type { Cache } from '../platform/cache.js';
import { createSummaryCache, summaryCacheKey, SUMMARY_TTL_SECONDS } from './cache.js';
import { summarize } from './summarize.js';
import type { Summary } from './variants.js';

const ABSTRACT =
  'We study how transformer language models use long contexts. Retrieval ' +
  'accuracy falls when the relevant passage sits in the middle of the ' +
  'input, and rises again near either end. We measure this on ' +
  'multi-document question answering and key-value retrieval. ' +
  'Extended-context models are not better at using their context than ' +
  'their shorter counterparts.';

function aSummary(title = 'Lost in the middle'): Summary {
  return summarize({ title, text: ABSTRACT, mode: 'quick' });
}

/** A shared store in a Map, whose texts a test can replace (another process writing). */
function fakeShared(): Cache & { texts: Map<string, string>; ttls: number[] } {
  const texts = new Map<string, string>();
  const ttls: number[] = [];
  return {
    kind: 'redis',
    texts,
    ttls,
    get: async (key) => texts.get(key) ?? null,
    set: async (key, value, ttl) => {
      texts.set(key, value);
      ttls.push(ttl);
    },
    delete: async (key) => {
      texts.delete(key);
    },
  };
}

describe('summaryCacheKey', () => {
  it('names everything a summary is made from: title and text, or title and what leads to the PDF', () => {
    const quick = { mode: 'quick' as const, title: 'Attention Is All You Need', text: ABSTRACT };
    const deep = {
      mode: 'deep' as const,
      title: 'Attention',
      pdf: { id: 'pubmed:1', source: 'pubmed', url: 'https://example.org/p.pdf' },
    };
    const keys = [
      summaryCacheKey(quick),
      summaryCacheKey({ ...quick, text: `${ABSTRACT} And a lie.` }),
      summaryCacheKey({ ...quick, title: 'Another title' }),
      summaryCacheKey({ ...quick, mode: 'deep' }),
      // The parts are kept apart: moving words from the title to the text is another input.
      summaryCacheKey({ mode: 'quick', title: 'Attention Is All You', text: `Need ${ABSTRACT}` }),
      summaryCacheKey(deep),
      summaryCacheKey({ ...deep, pdf: { ...deep.pdf, url: 'https://example.org/other.pdf' } }),
      summaryCacheKey({ ...deep, pdf: { ...deep.pdf, id: 'pubmed:2' } }),
      summaryCacheKey({ ...deep, pdf: { ...deep.pdf, source: 'crossref' } }),
      summaryCacheKey({ ...deep, title: 'Another title' }),
      // What else a record names of its PDF is part of the input too.
      summaryCacheKey({
        ...deep,
        pdf: { ...deep.pdf, pdfUrl: 'https://example.org/elsewhere.pdf' },
      }),
      summaryCacheKey({ ...deep, pdf: { ...deep.pdf, arxivId: '1410.5401' } }),
      summaryCacheKey({ ...deep, pdf: { ...deep.pdf, doi: '10.1/x' } }),
    ];
    expect(new Set(keys).size).toBe(keys.length);
    for (const key of keys)
      expect(key).toMatch(/^summary:v2:(quick|deep):(text|pdf):[0-9a-f]{64}$/);
    // The same input is the same key (surrounding spaces of an id or url do not make another).
    expect(
      summaryCacheKey({
        ...deep,
        pdf: { id: ' pubmed:1 ', source: 'PubMed', url: ' https://example.org/p.pdf' },
      }),
    ).toBe(keys[5]);
    expect(summaryCacheKey({ ...quick })).toBe(keys[0]);
  });

  it("keeps stored PDFs' summaries in a key space of their own, which no record's id reaches (issue 33)", () => {
    const hash = 'ab'.repeat(32);
    const stored = summaryCacheKey({ mode: 'deep', title: 'Private', storedPdfSha256: hash });
    expect(stored).toMatch(/^summary:v2:deep:stored:[0-9a-f]{64}$/);
    // What a client could send: the hash as a record's id, with or without a source or url.
    for (const pdf of [
      { id: `sha256:${hash}` },
      { id: `sha256:${hash}`, source: 'sha256' },
      { id: hash, url: `sha256:${hash}` },
    ])
      expect(summaryCacheKey({ mode: 'deep', title: 'Private', pdf })).not.toBe(stored);
    expect(summaryCacheKey({ mode: 'deep', title: 'Private', text: hash })).not.toBe(stored);
  });
});

describe('summary cache, in-process layer', () => {
  it('answers a hit with what a round trip through JSON gives, the same frozen object every time', async () => {
    const cache = createSummaryCache({});
    const summary = { ...aSummary(), dropped: undefined, notANumber: Number.NaN };
    await cache.set('k', summary);
    const first = await cache.get<Summary>('k');
    const second = await cache.get<Summary>('k');
    expect(first?.from).toBe('memory');
    expect(first?.value).toEqual(JSON.parse(JSON.stringify(summary)));
    expect(second?.value).toBe(first?.value);
    expect(Object.isFrozen(first?.value)).toBe(true);
    expect(Object.isFrozen(first?.value.bullets)).toBe(true);
    expect(() => first!.value.bullets.push('changed')).toThrow(TypeError);
    expect(first?.value).not.toBe(summary);
  });

  it('decodes once: every hit answers the object decoded when the value was stored', async () => {
    const cache = createSummaryCache({});
    await cache.set('k', aSummary('first'));
    const hits = [];
    for (let i = 0; i < 5; i++) hits.push((await cache.get<Summary>('k'))?.value);
    // Decoding on a hit would give a new object each time.
    expect(new Set(hits).size).toBe(1);
    expect(hits[0]).toEqual(JSON.parse(JSON.stringify(aSummary('first'))));
    // Storing again decodes the new value once more.
    await cache.set('k', aSummary('second'));
    const replaced = (await cache.get<Summary>('k'))?.value;
    expect(replaced).toEqual(JSON.parse(JSON.stringify(aSummary('second'))));
    expect(replaced).not.toBe(hits[0]);
    expect((await cache.get<Summary>('k'))?.value).toBe(replaced);
  });

  it('is bounded in entries, oldest out first', async () => {
    const cache = createSummaryCache({ memoryEntries: 2 });
    await cache.set('a', aSummary('A'));
    await cache.set('b', aSummary('B'));
    await cache.set('c', aSummary('C'));
    expect(await cache.get('a')).toBeNull();
    expect(await cache.get('b')).not.toBeNull();
    expect(await cache.get('c')).not.toBeNull();
  });

  it('is bounded in bytes, counting the decoded value beside the text', async () => {
    const text = JSON.stringify(aSummary());
    // Room for two entries counted as twice their text (as UTF-16), not for three.
    const entryBytes = 64 + 'k1'.length * 2 + text.length * 2 * 2;
    const cache = createSummaryCache({ memoryBytes: 2 * entryBytes + 10 });
    for (const key of ['k1', 'k2', 'k3']) await cache.set(key, aSummary());
    expect(await cache.get('k1')).toBeNull();
    expect(await cache.get('k2')).not.toBeNull();
    expect(await cache.get('k3')).not.toBeNull();
  });

  it('forgets an entry after seven days', async () => {
    let now = 1_000_000;
    const cache = createSummaryCache({ clock: { now: () => now } });
    await cache.set('k', aSummary());
    // The LRU keeps the time it last read for a millisecond (a timer of its own): the fake clock moves past it.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const later = (ms: number) => {
        now += ms;
        vi.advanceTimersByTime(1);
      };
      later(SUMMARY_TTL_SECONDS * 1000 - 1000);
      expect(await cache.get('k')).not.toBeNull();
      later(2000);
      expect(await cache.get('k')).toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('summary cache with a shared store', () => {
  it('stores the JSON text there for seven days and answers from there first', async () => {
    const shared = fakeShared();
    const cache = createSummaryCache({ shared });
    const summary = aSummary();
    await cache.set('k', summary);
    expect(shared.texts.get('k')).toBe(JSON.stringify(summary));
    expect(shared.ttls).toEqual([SUMMARY_TTL_SECONDS]);
    const first = await cache.get<Summary>('k');
    const second = await cache.get<Summary>('k');
    expect(first?.from).toBe('kv');
    // The text is the one this process stored: its decoded value is reused.
    expect(second?.value).toBe(first?.value);
    expect(first?.value).toEqual(summary);
  });

  it('answers what the shared store holds when another process has stored something else', async () => {
    const shared = fakeShared();
    const cache = createSummaryCache({ shared });
    await cache.set('k', aSummary('Mine'));
    const theirs = aSummary('Theirs');
    shared.texts.set('k', JSON.stringify(theirs));
    const hit = await cache.get<Summary>('k');
    expect(hit).toMatchObject({ from: 'kv', value: theirs });
    expect(Object.isFrozen(hit?.value)).toBe(true);
  });

  it('answers from memory while the shared store is down, and never fails', async () => {
    const shared = fakeShared();
    const cache = createSummaryCache({ shared });
    await cache.set('k', aSummary());
    shared.get = async () => {
      throw new Error('down');
    };
    shared.set = async () => {
      throw new Error('down');
    };
    expect((await cache.get('k'))?.from).toBe('memory');
    await expect(cache.set('other', aSummary('Other'))).resolves.toBeUndefined();
    expect((await cache.get('other'))?.from).toBe('memory');
  });
});
