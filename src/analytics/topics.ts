/**
 * Popular topics from a user's searches: the significant terms of the queries (stopwords, numbers and
 * one-letter tokens dropped), weighted by how often each query was searched. Two-word phrases that
 * recur (say "machine learning") count as topics of their own and hide the single words they explain.
 */

/** Function words plus the words people type around a topic ("paper on", "review of"). */
const STOPWORDS = new Set(
  `a about above after again against all also am an and any are as at be because been before being below between both but by
  can could did do does doing down during each few for from further had has have having he her here hers him his how i if in
  into is it its itself just me more most my no nor not of off on once only or other our ours out over own same she should so
  some such than that the their theirs them then there these they this those through to too under until up very vs was we were
  what when where which while who whom why will with within without would you your
  using use used based via towards toward new recent latest paper papers article articles study studies review reviews
  research survey introduction overview analysis approach approaches method methods`.split(/\s+/),
);

const MAX_BIGRAM_PARTS = 2;

export function significantTerms(query: string): string[] {
  return (
    query
      .toLowerCase()
      .normalize('NFKC')
      .match(/[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu) ?? []
  )
    .map((token) => token.replace(/['’-]+$/, ''))
    .filter((token) => token.length > 1 && !/^\d+$/.test(token) && !STOPWORDS.has(token));
}

interface Weighted {
  term: string;
  weight: number;
  parts: number;
}

export interface TopicCount {
  topic: string;
  /** Searches whose query contains the topic (each query counted once however often it repeats the term). */
  count: number;
}

/** The `max` most significant topics of these (query, times searched) groups. */
export function popularTopics(
  queries: Array<{ query: string; count: number }>,
  max = 10,
): string[] {
  return popularTopicCounts(queries, max).map((entry) => entry.topic);
}

/** The same topics as `popularTopics`, in the same order, each with the number of searches behind it. */
export function popularTopicCounts(
  queries: Array<{ query: string; count: number }>,
  max = 10,
): TopicCount[] {
  const weights = new Map<string, Weighted>();
  const add = (term: string, parts: number, count: number) => {
    const entry = weights.get(term) ?? { term, weight: 0, parts };
    entry.weight += count;
    weights.set(term, entry);
  };
  for (const { query, count } of queries) {
    const terms = significantTerms(query);
    // Each term counts once per query, however often the query repeats it.
    for (const term of new Set(terms)) add(term, 1, count);
    const phrases = new Set(terms.slice(1).map((term, index) => `${terms[index]} ${term}`));
    for (const phrase of phrases) add(phrase, MAX_BIGRAM_PARTS, count);
  }
  const ranked = [...weights.values()]
    .filter((entry) => entry.parts === 1 || entry.weight >= 2)
    .sort((a, b) => b.weight - a.weight || b.parts - a.parts || a.term.localeCompare(b.term));

  const chosen: Weighted[] = [];
  for (const entry of ranked) {
    if (chosen.length >= max) break;
    const words = entry.term.split(' ');
    const overlaps = chosen.filter(
      (phrase) => phrase.parts > 1 && words.some((word) => phrase.term.split(' ').includes(word)),
    );
    // A word seen only inside a chosen phrase adds nothing; nor does a phrase overlapping a stronger one
    // ("learning genomics" after "machine learning").
    const redundant =
      entry.parts === 1
        ? overlaps.some((phrase) => phrase.weight >= entry.weight)
        : overlaps.length > 0;
    if (!redundant) chosen.push(entry);
  }
  return chosen.map((entry) => ({ topic: entry.term, count: entry.weight }));
}
