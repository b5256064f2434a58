/**
 * What a summary request is answered with: Variant A (id/source/title/abstract/url/mode) or Variant B
 * (content), by the variant of the request body (docs/design.md, Dialects). A cached summary is one
 * frozen object for as long as the cache holds it (see cache.ts), so its serialised reply is kept
 * beside it, by identity, and a hit is answered without presenting or serialising it again.
 */
import type { SummaryOutcome } from './produce.js';
import { toSummaryVariantA, toSummaryVariantB, type Summary } from './variants.js';

export type Dialect = 'A' | 'B';

export function presentVariantA(outcome: SummaryOutcome, cacheDescription: string) {
  return {
    ...toSummaryVariantA(outcome.summary),
    modeRequested: outcome.modeRequested,
    modeUsed: outcome.modeUsed,
    fromCache: outcome.fromCache,
    cache: cacheDescription,
  };
}

export function presentVariantB(outcome: SummaryOutcome) {
  return { ...toSummaryVariantB(outcome.summary), modeUsed: outcome.modeUsed, fromCache: outcome.fromCache };
}

export type PresentedSummary = ReturnType<typeof presentVariantA> | ReturnType<typeof presentVariantB>;

export function presentSummary(outcome: SummaryOutcome, dialect: Dialect, cacheDescription: string): PresentedSummary {
  return dialect === 'B' ? presentVariantB(outcome) : presentVariantA(outcome, cacheDescription);
}

/**
 * Serialised replies of cached summaries. Entries go with their summary object, which is the cache's
 * (its size counts them); a fresh summary is never seen again, so its reply is not kept.
 */
export function createReplyMemo(cacheDescription: string) {
  const replies = new WeakMap<Summary, Map<string, string>>();
  return {
    /** The reply's JSON text; `serialize` is the route's serialiser (what Fastify would write). */
    serialised(outcome: SummaryOutcome, dialect: Dialect, serialize: (reply: PresentedSummary) => string): string {
      if (outcome.fromCache === false) return serialize(presentSummary(outcome, dialect, cacheDescription));
      // Everything the reply holds besides the summary itself.
      const variant = `${dialect} ${outcome.modeRequested} ${outcome.modeUsed} ${outcome.fromCache}`;
      let forSummary = replies.get(outcome.summary);
      const known = forSummary?.get(variant);
      if (known !== undefined) return known;
      const json = serialize(presentSummary(outcome, dialect, cacheDescription));
      if (!forSummary) replies.set(outcome.summary, (forSummary = new Map()));
      forSummary.set(variant, json);
      return json;
    },
  };
}
