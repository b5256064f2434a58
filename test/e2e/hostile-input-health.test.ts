/**
 * Work whose cost a user's input decides runs in worker threads (STYLE.md rule 12): on the built
 * process, each hostile input of issue 33 is sent while another client polls GET /api/health, which
 * must keep answering promptly, and the hostile request gets a clear 4xx within its limit.
 *
 * The goal is health's p99 under 200 ms beside each input. On a machine of its own health
 * answers in a few milliseconds, but CI's two cores are shared with other runs, whose load delays
 * health with no input at all. So before each case the same poller measures health alone for 2 s in
 * the same process (the baseline), and beside the input health's p99 must stay under 200 ms plus
 * that baseline's p99: the 200 ms is the budget for what the input may add, the baseline what
 * the machine costs anyway. Measured right before each case, not once for the file, because the
 * machine's load drifts over the minute the file runs. Idle, the bound is ≈ 200 ms, the issue's own;
 * it is not a ratio of the baseline, so a loaded baseline does not multiply the input's allowance.
 * Before the workers, health waited 18.8 s beside the macro file and tens of seconds beside the
 * large files, far past any such margin.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ask, signUpAndIn, type ProcessUser } from '../support/process-client.js';
import { startServerProcess, type ServerProcess } from '../support/server-process.js';

/**
 * The import's time limit in this process: a file that takes longer to read is refused. 750 ms: the
 * BibTeX reader of issue 35 read the slow file below in about 1.5 s on an idle machine, so a limit
 * of 1.5 s was sometimes not reached.
 */
const PARSE_TIMEOUT_MS = 750;
/** How soon a file refused by its count is answered: before any reading, well within 1.5 s. */
const REFUSED_BY_COUNT_MS = 1_500;

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
};

/** Polls health one request after another while `work` runs (and at least `minMs`); their latencies. */
async function healthWhile<T>(
  url: string,
  work: Promise<T>,
  minMs = 0,
): Promise<{ result: T; latencies: number[] }> {
  let done = false;
  const finished = work.finally(() => (done = true));
  const started = Date.now();
  const latencies: number[] = [];
  while (!done || Date.now() - started < minMs) {
    const answer = await ask(`${url}/api/health`, {}, 60_000);
    expect(answer.status).toBe(200);
    latencies.push(answer.ms);
  }
  return { result: await finished, latencies };
}

/** 823 bytes: `a0` of 32 characters doubled 21 times (64 MiB, and far more inside a parser). */
function doublingMacros(): string {
  const lines = ['@string{a0 = "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"}'];
  for (let i = 1; i <= 21; i++) lines.push(`@string{a${i} = a${i - 1} # a${i - 1}}`);
  lines.push('@article{doubled, title = a21, author = {Doe, Jane}, year = 2020}');
  return lines.join('\n');
}

/** Entries of `fill` characters each, `count` of them: BibTeX. */
function bibtexEntries(count: number, fill: number): string {
  const parts: string[] = [];
  for (let i = 0; i < count; i++)
    parts.push(
      `@article{k${i},\n  title = {Study ${i} of things},\n  author = {Doe, ` +
        `Jane and Roe, Richard},\n  year = {${1990 + (i % 30)}},\n  abstract = ` +
        `{${'word '.repeat(fill / 5)}}\n}\n`,
    );
  return parts.join('\n');
}

function risRecords(count: number): string {
  const parts: string[] = [];
  for (let i = 0; i < count; i++)
    parts.push(`TY  - JOUR\nTI  - Record ${i}\nAU  - Doe, Jane\nPY  - 2001\nER  - \n`);
  return parts.join('\n');
}

describe('hostile input on the built process: health keeps answering, the input gets a 4xx', () => {
  let server: ServerProcess;
  let user: ProcessUser;
  let workspaceId: string;

  const importFile = (text: string, type: string) =>
    ask(
      `${server.url}/api/workspaces/${workspaceId}/import?dryRun=true`,
      { method: 'POST', headers: { ...user.bearer, 'content-type': type }, body: text },
      120_000,
    );

  /**
   * Health's p99 alone (the baseline, 2 s of polling), then the hostile request's answer and health's
   * p99 beside it (at least 1.5 s of polling), and the bound that p99 must stay under.
   */
  async function beside<T extends { ms: number }>(name: string, request: () => Promise<T>) {
    const alone = await healthWhile(server.url, Promise.resolve(), 2_000);
    const baselineP99 = quantile(alone.latencies, 0.99);
    const { result, latencies } = await healthWhile(server.url, request(), 1_500);
    const p99 = quantile(latencies, 0.99);
    if (process.env.HOSTILE_INPUT_REPORT)
      console.log(
        `${name}: health p99 ${p99} ms over ${latencies.length} polls (baseline ` +
          `p99 ${baselineP99} ms over ${alone.latencies.length}); answer ` +
          `in ${result.ms} ms`,
      );
    return { answer: result, p99, bound: 200 + baselineP99 };
  }

  beforeAll(async () => {
    server = await startServerProcess({
      env: {
        LOG_LEVEL: 'warn',
        IMPORT_PARSE_TIMEOUT_MS: String(PARSE_TIMEOUT_MS),
        RATE_LIMIT_AUTHENTICATED_PER_HOUR: '100000',
      },
    });
    user = await signUpAndIn(server.url);
    const created = await ask(`${server.url}/api/workspaces`, {
      method: 'POST',
      headers: { ...user.bearer, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Hostile input' }),
    });
    expect(created.status).toBe(201);
    workspaceId =
      (JSON.parse(created.body) as { id?: string; workspace?: { id: string } }).id ??
      (JSON.parse(created.body) as { workspace: { id: string } }).workspace.id;
  }, 200_000);
  afterAll(async () => {
    await server?.stop();
  });

  it('an 823-byte file of doubling @string macros: 400 naming the macro, health unaffected', async () => {
    const file = doublingMacros();
    expect(Buffer.byteLength(file)).toBeLessThan(1024);
    const { answer, p99, bound } = await beside('macros', () =>
      importFile(file, 'application/x-bibtex'),
    );
    expect(answer.status).toBe(400);
    const { error } = JSON.parse(answer.body) as {
      error: { code: string; message: string; details: { field: string; reason: string } };
    };
    expect(error.code).toBe('VALIDATION_ERROR');
    expect(error.details).toEqual({ field: 'file', reason: 'macro_too_large' });
    expect(error.message).toMatch(/macro "a\d+"/);
    expect(p99).toBeLessThan(bound);
  });

  it('10 MB of tiny BibTeX entries: 400 past 5,000 entries before any parsing, health unaffected', async () => {
    const file = bibtexEntries(70_000, 10);
    expect(file.length).toBeGreaterThan(9 * 1024 * 1024);
    expect(file.length).toBeLessThan(10 * 1024 * 1024);
    const { answer, p99, bound } = await beside('10 MB BibTeX', () =>
      importFile(file, 'application/x-bibtex'),
    );
    expect(answer.status, answer.body).toBe(400);
    expect(answer.body).toMatch(/"reason":"too_many_entries"/);
    expect(answer.body).toMatch(/at least 70,000 entries/);
    // Refused by the count, not by reading.
    expect(answer.ms).toBeLessThan(REFUSED_BY_COUNT_MS);
    expect(p99).toBeLessThan(bound);
  });

  it('9 MB of RIS: 400 past 5,000 records, health unaffected', async () => {
    const file = risRecords(150_000);
    expect(file.length).toBeGreaterThan(8 * 1024 * 1024);
    const { answer, p99, bound } = await beside('9 MB RIS', () =>
      importFile(file, 'application/x-research-info-systems'),
    );
    expect(answer.status, answer.body).toBe(400);
    expect(answer.body).toMatch(/"reason":"too_many_entries"/);
    expect(p99).toBeLessThan(bound);
  });

  it('a file that takes longer to read than the limit: 422 once the limit passes, health unaffected, nothing written', async () => {
    // 5,000 entries of 1.6 KB: within every count, far more than PARSE_TIMEOUT_MS of parsing.
    const file = bibtexEntries(5_000, 1_600);
    expect(file.length).toBeLessThan(10 * 1024 * 1024);
    const { answer, p99, bound } = await beside('slow file', () =>
      ask(
        `${server.url}/api/workspaces/${workspaceId}/import`,
        { method: 'POST', headers: { ...user.bearer, 'content-type': 'text/plain' }, body: file },
        120_000,
      ),
    );
    expect(answer.status, answer.body).toBe(422);
    expect(answer.body).toMatch(/"reason":"too_slow_to_read"/);
    // Answered at the limit (plus the upload and the answer), not when the parse would have ended.
    expect(answer.ms).toBeLessThan(PARSE_TIMEOUT_MS + 5_000);
    expect(p99).toBeLessThan(bound);
    const resources = await ask(`${server.url}/api/workspaces/${workspaceId}/resources`, {
      headers: user.bearer,
    });
    expect(resources.status).toBe(200);
    expect(resources.body).not.toMatch(/Study \d+ of things/);
  });

  it('20 citation requests at once in styles not yet used: some 429 with Retry-After, the rest 200, health unaffected', async () => {
    const added = await ask(`${server.url}/api/workspaces/${workspaceId}/resources`, {
      method: 'POST',
      headers: { ...user.bearer, 'content-type': 'application/json' },
      body: JSON.stringify({
        title: 'Attention is all you need',
        authors: ['Ashish Vaswani', 'Noam Shazeer'],
        url: 'https://arxiv.org/abs/1706.03762',
        type: 'preprint',
      }),
    });
    expect(added.status, added.body).toBe(201);
    const body = JSON.parse(added.body) as { id?: string; resource?: { id: string } };
    const resourceId = body.id ?? body.resource!.id;
    const styles = [
      'nature',
      'american-medical-association',
      'american-chemical-society',
      'american-sociological-association',
      'harvard1',
    ];
    const answers: Array<{ status: number; retryAfter: string | null }> = [];
    const { p99, bound } = await beside('20 citations', async () => {
      const sent = Date.now();
      await Promise.all(
        Array.from({ length: 20 }, async (_, i) => {
          const query = new URLSearchParams({ resourceIds: resourceId, style: styles[i % 5]! });
          const res = await fetch(`${server.url}/api/workspaces/${workspaceId}/cite?${query}`, {
            headers: user.bearer,
            signal: AbortSignal.timeout(60_000),
          });
          await res.text();
          answers.push({ status: res.status, retryAfter: res.headers.get('retry-after') });
        }),
      );
      return { ms: Date.now() - sent };
    });
    expect(answers.filter((answer) => answer.status === 200).length).toBeGreaterThanOrEqual(2);
    const refused = answers.filter((answer) => answer.status !== 200);
    expect(refused.length).toBeGreaterThan(0);
    for (const answer of refused) {
      expect(answer.status).toBe(429);
      expect(Number(answer.retryAfter)).toBeGreaterThan(0);
    }
    expect(p99).toBeLessThan(bound);
  });
});
