/**
 * Reads a scrape as Prometheus reads it (text exposition format 0.0.4), strictly: a line that is not a
 * comment, a HELP, a TYPE or a well-formed sample fails; so does a sample outside the family its TYPE
 * declared, a series written twice, or a histogram whose buckets are not cumulative or whose `+Inf`
 * bucket is not its `_count`.
 *
 * Why not only parse-prometheus-text-format (npm): it keeps the labels of counters and gauges, but folds
 * every series of a histogram into one unlabeled sample, so a histogram by route cannot be read with it.
 * `parseScrape` also runs it, and checks that it reads every counter and gauge as this reader does.
 */
import parsePrometheusTextFormat from 'parse-prometheus-text-format';

export type Labels = Record<string, string>;
export interface Sample {
  name: string;
  labels: Labels;
  value: number;
}
export interface Family {
  name: string;
  type: 'counter' | 'gauge' | 'histogram' | 'summary' | 'untyped';
  help: string;
  samples: Sample[];
}

const NAME = '[a-zA-Z_:][a-zA-Z0-9_:]*';
const SAMPLE_LINE = new RegExp(`^(${NAME})(?:\\{(.*)\\})? (\\S+)(?: (-?\\d+))?$`);
const LABEL = /\s*([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"\s*(,|$)/y;
const SUFFIXES: Record<Family['type'], string[]> = {
  counter: [''],
  gauge: [''],
  untyped: [''],
  histogram: ['_bucket', '_sum', '_count'],
  summary: ['', '_sum', '_count'],
};

function parseLabels(text: string, line: string): Labels {
  const labels: Labels = {};
  LABEL.lastIndex = 0;
  while (LABEL.lastIndex < text.length) {
    const at = LABEL.lastIndex;
    const match = LABEL.exec(text);
    if (!match || match.index !== at) throw new Error(`Malformed labels: ${line}`);
    const [, name, raw] = match as unknown as [string, string, string];
    if (name in labels) throw new Error(`Label ${name} twice: ${line}`);
    labels[name] = raw.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
  }
  return labels;
}

/** As Prometheus reads a value (Go's ParseFloat): `NaN` and `Inf` in any case; prom-client writes `Nan`. */
function parseValue(text: string, line: string): number {
  const lower = text.toLowerCase();
  if (lower === '+inf' || lower === 'inf') return Infinity;
  if (lower === '-inf') return -Infinity;
  if (lower === 'nan') return NaN;
  const value = Number(text);
  if (text.trim() === '' || Number.isNaN(value)) throw new Error(`Malformed value: ${line}`);
  return value;
}

const seriesKey = (name: string, labels: Labels) =>
  `${name}${JSON.stringify(Object.entries(labels).sort(([a], [b]) => a.localeCompare(b)))}`;

function parseExposition(text: string): Map<string, Family> {
  const families = new Map<string, Family>();
  const seen = new Set<string>();
  let current: Family | undefined;
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const meta = /^# (HELP|TYPE) (\S+)(?: (.*))?$/.exec(line);
    if (meta) {
      const [, kind, name, rest = ''] = meta as unknown as [
        string,
        'HELP' | 'TYPE',
        string,
        string | undefined,
      ];
      let family = families.get(name);
      if (!family) families.set(name, (family = { name, type: 'untyped', help: '', samples: [] }));
      if (kind === 'TYPE') {
        if (!(rest in SUFFIXES)) throw new Error(`Unknown type: ${line}`);
        family.type = rest as Family['type'];
      } else family.help = rest;
      current = family;
      continue;
    }
    if (line.startsWith('#')) continue;
    const match = SAMPLE_LINE.exec(line);
    if (!match) throw new Error(`Malformed sample: ${line}`);
    const [, name, labelText, valueText] = match as unknown as [
      string,
      string,
      string | undefined,
      string,
    ];
    if (
      !current ||
      !SUFFIXES[current.type].some((suffix) => `${current!.name}${suffix}` === name)
    ) {
      throw new Error(`Sample outside its family: ${line}`);
    }
    const sample = {
      name,
      labels: labelText ? parseLabels(labelText, line) : {},
      value: parseValue(valueText, line),
    };
    const key = seriesKey(name, sample.labels);
    if (seen.has(key)) throw new Error(`Series written twice: ${line}`);
    seen.add(key);
    current.samples.push(sample);
  }
  for (const family of families.values()) if (family.type === 'histogram') checkHistogram(family);
  return families;
}

function checkHistogram(family: Family): void {
  const counts = family.samples.filter((s) => s.name === `${family.name}_count`);
  for (const count of counts) {
    const { le: _le, ...labels } = count.labels;
    const buckets = family.samples
      .filter(
        (s) =>
          s.name === `${family.name}_bucket` &&
          seriesKey('', withoutLe(s.labels)) === seriesKey('', labels),
      )
      .map((s) => ({ le: parseValue(s.labels.le ?? '', family.name), value: s.value }))
      .sort((a, b) => a.le - b.le);
    const values = buckets.map((b) => b.value);
    if (values.some((value, i) => i > 0 && value < values[i - 1]!))
      throw new Error(`${family.name}: buckets not cumulative`);
    if (buckets.at(-1)?.le !== Infinity || buckets.at(-1)?.value !== count.value)
      throw new Error(`${family.name}: +Inf bucket is not _count`);
  }
}

function withoutLe(labels: Labels): Labels {
  const { le: _le, ...rest } = labels;
  return rest;
}

interface LibraryFamily {
  name: string;
  type: string;
  metrics: Array<{ value?: string; labels?: Labels }>;
}

/** The scrape read strictly, after checking that parse-prometheus-text-format reads its counters and gauges alike. */
export function parseScrape(text: string): Map<string, Family> {
  const families = parseExposition(text);
  const library = parsePrometheusTextFormat(text) as LibraryFamily[];
  for (const theirs of library) {
    const ours = families.get(theirs.name);
    if (!ours)
      throw new Error(
        `parse-prometheus-text-format read a family this reader did not: ${theirs.name}`,
      );
    if (theirs.type !== 'COUNTER' && theirs.type !== 'GAUGE') continue;
    const read = theirs.metrics
      .map((m) => `${seriesKey(ours.name, m.labels ?? {})}=${Number(m.value)}`)
      .sort();
    const mine = ours.samples.map((s) => `${seriesKey(s.name, s.labels)}=${s.value}`).sort();
    if (JSON.stringify(read) !== JSON.stringify(mine))
      throw new Error(`The two readers disagree on ${ours.name}`);
  }
  if (library.length !== families.size) throw new Error('The two readers found different families');
  return families;
}

/** The value of one series (`name` with exactly these labels), or undefined when there is none. */
export function seriesValue(
  families: Map<string, Family>,
  name: string,
  labels: Labels = {},
): number | undefined {
  const familyName = name.replace(/_(bucket|sum|count)$/, '');
  const family = families.get(name) ?? families.get(familyName);
  const key = seriesKey(name, labels);
  return family?.samples.find((sample) => seriesKey(sample.name, sample.labels) === key)?.value;
}
