/**
 * Resident memory of the built service under a long mixed load, and after it, idle.
 *
 * The service runs as production starts it (bench/processes.ts `startService`) on a new embedded
 * store. For `minutes`, four loads run at once:
 * - the researcher's journey (bench/journey.ts) at 10 connections, in 30-second runs of the load
 *   generator back to back;
 * - deep summaries of real PDFs (test/fixtures/pdfs) streamed as server-sent events, a new URL each
 *   time so that every one is fetched, extracted in a worker thread and summarised; every other stream
 *   is cut as soon as its first progress event arrives, the way a reader closes the tab;
 * - quick summary streams cut after their first event;
 * - avatar uploads (a 1200 × 1200 photo-like image, decoded and re-encoded by sharp).
 * Resident memory (VmRSS) is read from /proc every 5 s; the heap after a full collection is not
 * visible from outside, so the figure is what the operating system has given the process. After the
 * load, the process idles for `idleSeconds` and is read again: memory it keeps idle is memory a quiet
 * process holds forever.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server as HttpServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { journeySearchPath, seedJourneyUsers } from './journey.js';
import { ROOT, runLoad, startService, type Server } from './processes.js';

export interface MemorySample {
  seconds: number;
  rssMb: number;
  /** The main thread's V8 heap in use and reserved, and memory V8 tracks outside it (buffers), from GET /metrics. */
  heapUsedMb?: number;
  heapTotalMb?: number;
  externalMb?: number;
}

export interface MemoryResult {
  minutes: number;
  idleSeconds: number;
  /** RSS once the service has started and been seeded, before the load. */
  startMb: number;
  /** RSS at each whole-minute mark that was reached (1, 5, 15, …). */
  atMinute: Record<string, number>;
  /** RSS after the load stopped and the process idled. */
  idleMb: number;
  /** The idle process's main-thread heap and external memory: what of the RSS is JavaScript's. */
  idle: MemorySample;
  peakMb: number;
  work: {
    journeyRequests: number;
    deepStreamsDone: number;
    deepStreamsCut: number;
    quickStreamsCut: number;
    avatars: number;
    failures: number;
  };
  samples: MemorySample[];
}

const METRICS_TOKEN = randomBytes(24).toString('hex');

/** The main thread's heap figures, from the service's Prometheus metrics (prom-client's defaults). */
async function heapFigures(
  origin: string,
): Promise<Pick<MemorySample, 'heapUsedMb' | 'heapTotalMb' | 'externalMb'>> {
  const response = await fetch(`${origin}/metrics`, {
    headers: { authorization: `Bearer ${METRICS_TOKEN}` },
  }).catch(() => null);
  if (!response?.ok) return {};
  const text = await response.text();
  const mb = (name: string) => {
    const match = new RegExp(`^${name} (\\S+)$`, 'm').exec(text);
    return match ? Math.round(Number(match[1]) / 2 ** 20) : undefined;
  };
  return {
    heapUsedMb: mb('nodejs_heap_size_used_bytes'),
    heapTotalMb: mb('nodejs_heap_size_total_bytes'),
    externalMb: mb('nodejs_external_memory_bytes'),
  };
}

function rssMb(pid: number): number {
  const match = /VmRSS:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Math.round(Number(match[1]) / 1024) : Number.NaN;
}

/** A local server for the PDFs the deep summaries fetch (any path ending in `/<n>.pdf`). */
async function startPdfServer(): Promise<{ url: string; close: () => Promise<void> }> {
  const dir = join(ROOT, 'test', 'fixtures', 'pdfs');
  const pdfs = readdirSync(dir)
    .filter((name) => name.endsWith('.pdf'))
    .map((name) => readFileSync(join(dir, name)));
  const server: HttpServer = createServer((request, response) => {
    const n = Number(/(\d+)\.pdf$/.exec(request.url ?? '')?.[1] ?? 0);
    const body = pdfs[n % pdfs.length] as Buffer;
    response.writeHead(200, { 'content-type': 'application/pdf', 'content-length': body.length });
    response.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Reads a summary stream until `stopAfter` returns true for an event name (then closes it, as a reader
 * closing the tab does), or to its end. `cut`: it was closed before its `done` event.
 */
async function readStream(
  url: string,
  headers: Record<string, string>,
  stopAfter: (event: string) => boolean,
): Promise<{ cut: boolean }> {
  const controller = new AbortController();
  const response = await fetch(url, {
    headers: { accept: 'text/event-stream', ...headers },
    signal: controller.signal,
  });
  if (!response.ok || !response.body) throw new Error(`stream ${response.status}`);
  const decoder = new TextDecoder();
  let buffered = '';
  let stoppedAt: string | undefined;
  try {
    reading: for await (const chunk of response.body) {
      buffered += decoder.decode(chunk as Uint8Array, { stream: true });
      for (const match of buffered.matchAll(/^event: (\w+)$/gm)) {
        const event = match[1] as string;
        if (event === 'error') throw new Error('stream error event');
        if (stopAfter(event)) {
          stoppedAt = event;
          break reading;
        }
      }
      buffered = buffered.slice(buffered.lastIndexOf('\n') + 1);
    }
  } finally {
    controller.abort();
  }
  return { cut: stoppedAt !== undefined && stoppedAt !== 'done' };
}

const JOURNEY_SEARCHES = ['long context retrieval', 'protein folding language models'];
const ABSTRACT =
  'Long inputs strain attention, whose cost grows with the square of the ' +
  'sequence length. We study retrieval over long inputs and show that a ' +
  'small index of passages, consulted by the model, matches full attention ' +
  'on question answering at a fraction of the memory. Ablations show the ' +
  'index size matters more than the retriever.';

export async function measureMemory(
  minutes: number,
  idleSeconds: number,
  env: Record<string, string>,
  log: (line: string) => void,
): Promise<MemoryResult> {
  const workDir = mkdtempSync(join(tmpdir(), 'rw-bench-memory-'));
  const pdfServer = await startPdfServer();
  let service: Server | null = null;
  try {
    // The first start creates the database, which briefly takes far more memory than serving does
    // (PGlite's initdb); the measured process starts on the database it left.
    const serviceEnv = { ...env, DATA_DIR: join(workDir, 'data'), METRICS_TOKEN };
    await (
      await startService('service (creating the database)', serviceEnv, join(workDir, 'create.log'))
    ).stop();
    service = await startService('service (memory)', serviceEnv, join(workDir, 'service.log'));
    const { origin, pid } = service;
    const users = await seedJourneyUsers(origin, 4);
    const token = users[0]?.token ?? '';
    const authorization = { authorization: `Bearer ${token}` };
    for (const query of JOURNEY_SEARCHES) {
      const response = await fetch(`${origin}${journeySearchPath(query)}`, {
        headers: authorization,
      });
      if (!response.ok) throw new Error(`warming search "${query}": ${response.status}`);
      await new Promise((resolve) => setTimeout(resolve, 3500));
    }
    const cachedSummaryBody = JSON.stringify({
      title: 'Retrieval over long inputs',
      abstract: ABSTRACT,
      mode: 'quick',
    });
    await fetch(`${origin}/api/summarize`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...authorization },
      body: cachedSummaryBody,
    });
    const avatar = await sharp({
      create: {
        width: 1200,
        height: 1200,
        channels: 3,
        background: '#808080',
        noise: { type: 'gaussian', mean: 128, sigma: 40 },
      },
    })
      .jpeg({ quality: 85 })
      .toBuffer();

    const startMb = rssMb(pid);
    const samples: MemorySample[] = [{ seconds: 0, rssMb: startMb }];
    const atMinute: Record<string, number> = {};
    const work = {
      journeyRequests: 0,
      deepStreamsDone: 0,
      deepStreamsCut: 0,
      quickStreamsCut: 0,
      avatars: 0,
      failures: 0,
    };
    const started = Date.now();
    const endsAt = started + minutes * 60_000;
    const running = () => Date.now() < endsAt;
    const sampler = setInterval(() => {
      const seconds = Math.round((Date.now() - started) / 1000);
      const mb = rssMb(pid);
      const sample: MemorySample = { seconds, rssMb: mb };
      samples.push(sample);
      void heapFigures(origin).then((figures) => Object.assign(sample, figures));
      const minute = Math.floor(seconds / 60);
      if (seconds % 60 < 5 && minute > 0 && atMinute[minute] === undefined) {
        atMinute[minute] = mb;
        log(`  memory: ${minute} min, RSS ${mb} MB`);
      }
    }, 5_000);

    const journey = async () => {
      while (running()) {
        const seconds = Math.max(1, Math.min(30, Math.round((endsAt - Date.now()) / 1000)));
        const plan = {
          users,
          searchQueries: JOURNEY_SEARCHES,
          cachedSummaryBody,
          runId: randomBytes(3).toString('hex'),
        };
        const [result] = await runLoad({
          mode: 'autocannon',
          origins: [origin],
          method: 'GET',
          path: '/',
          headers: {},
          journey: plan,
          connections: 10,
          durationSeconds: seconds,
        });
        work.journeyRequests += result?.requests ?? 0;
      }
    };
    let deepStarted = 0;
    const deepStreams = async () => {
      while (running()) {
        const n = deepStarted++;
        const cut = n % 2 === 1;
        const paper = `${pdfServer.url}/papers/${randomBytes(4).toString('hex')}/${n}.pdf`;
        const url = `${origin}/api/summarize?${new URLSearchParams({ url: paper, mode: 'deep' })}`;
        const outcome = await readStream(
          url,
          authorization,
          (event) => event === 'done' || (cut && event === 'progress'),
        ).catch(() => {
          work.failures++;
          return null;
        });
        if (outcome?.cut) work.deepStreamsCut++;
        else if (outcome) work.deepStreamsDone++;
      }
    };
    const quickStreams = async () => {
      for (let n = 0; running(); n++) {
        const query = new URLSearchParams({
          title: `Retrieval over long inputs ${randomBytes(4).toString('hex')}`,
          abstract: ABSTRACT,
          mode: 'quick',
        });
        const url = `${origin}/api/summarize?${query}`;
        const outcome = await readStream(url, authorization, (event) => event === 'meta').catch(
          () => {
            work.failures++;
            return null;
          },
        );
        if (outcome?.cut) work.quickStreamsCut++;
      }
    };
    const avatars = async () => {
      while (running()) {
        const form = new FormData();
        form.append('file', new Blob([avatar], { type: 'image/jpeg' }), 'photo.jpg');
        const response = await fetch(`${origin}/api/profile/avatar`, {
          method: 'POST',
          headers: authorization,
          body: form,
        }).catch(() => null);
        if (response?.ok) work.avatars++;
        else work.failures++;
        await response?.arrayBuffer();
      }
    };
    await Promise.all([journey(), deepStreams(), deepStreams(), quickStreams(), avatars()]);
    clearInterval(sampler);
    const finalMinute = Math.round(minutes);
    atMinute[finalMinute] ??= rssMb(pid);

    await new Promise((resolve) => setTimeout(resolve, idleSeconds * 1000));
    const idle: MemorySample = {
      seconds: Math.round((Date.now() - started) / 1000),
      rssMb: rssMb(pid),
      ...(await heapFigures(origin)),
    };
    samples.push(idle);
    return {
      minutes,
      idleSeconds,
      startMb,
      atMinute,
      idleMb: idle.rssMb,
      idle,
      peakMb: service.peakRssMb() ?? Math.max(...samples.map((s) => s.rssMb)),
      work,
      samples,
    };
  } finally {
    await service?.stop();
    await pdfServer.close();
    rmSync(workDir, { recursive: true, force: true });
  }
}
