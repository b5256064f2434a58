/**
 * A real HTTP server on 127.0.0.1 (port 0) that answers provider API paths with recorded bodies from
 * `test/fixtures/providers/`. Routes match on method, path and query; each may add a status, headers,
 * a delay, or answer only a number of times (to script "429, then 200"). Every request is logged so that
 * tests can assert what was asked.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PROVIDER_FIXTURES_DIR = join(
  dirname(fileURLToPath(import.meta.url)),
  '..',
  'fixtures',
  'providers',
);

/** The text of a recorded body, e.g. `readFixture('arxiv/error_400_incorrect_id_format_abc.xml')`. */
export function readFixture(relativePath: string): string {
  return readFileSync(join(PROVIDER_FIXTURES_DIR, relativePath), 'utf8');
}

export type QueryMatcher = Record<string, string | RegExp> | ((query: URLSearchParams) => boolean);

export interface FixtureRoute {
  /** Default GET. */
  method?: string;
  /** Exact path (after URL decoding) or a pattern. */
  path: string | RegExp;
  /** Every named parameter must equal (string) or match (RegExp); or a predicate over all parameters. */
  query?: QueryMatcher;
  /** Default 200. */
  status?: number;
  headers?: Record<string, string>;
  /** A file under test/fixtures/providers; its extension sets the content type unless headers do. */
  fixture?: string;
  body?: string;
  /** Milliseconds before answering. */
  delayMs?: number;
  /** Answer only this many times; afterwards the route no longer matches. */
  times?: number;
  /** Close the connection without any answer, as a server that cannot be reached. */
  hangUp?: boolean;
}

export interface LoggedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  /** Which route answered (index into the route list), or -1 when none matched. */
  routeIndex: number;
  at: number;
}

export interface FixtureServer {
  /** `http://127.0.0.1:<port>`, no trailing slash. */
  url: string;
  requests: LoggedRequest[];
  /** Requests whose path matched, for assertions. */
  requestsTo(path: string | RegExp): LoggedRequest[];
  addRoute(route: FixtureRoute): void;
  close(): Promise<void>;
}

const CONTENT_TYPES: Record<string, string> = {
  '.xml': 'application/xml; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
};

function pathMatches(pattern: string | RegExp, path: string): boolean {
  return typeof pattern === 'string' ? pattern === path : pattern.test(path);
}

function queryMatches(matcher: QueryMatcher | undefined, query: URLSearchParams): boolean {
  if (!matcher) return true;
  if (typeof matcher === 'function') return matcher(query);
  return Object.entries(matcher).every(([name, expected]) => {
    const actual = query.get(name);
    if (actual === null) return false;
    return typeof expected === 'string' ? actual === expected : expected.test(actual);
  });
}

export async function startFixtureServer(
  initialRoutes: FixtureRoute[] = [],
): Promise<FixtureServer> {
  const routes = [...initialRoutes];
  const served = new Map<number, number>();
  const requests: LoggedRequest[] = [];
  const timers = new Set<NodeJS.Timeout>();

  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    let path = url.pathname;
    try {
      path = decodeURIComponent(url.pathname);
    } catch {
      // keep the raw path
    }
    const method = req.method ?? 'GET';
    const routeIndex = routes.findIndex((route, index) => {
      if ((route.method ?? 'GET') !== method) return false;
      if (route.times !== undefined && (served.get(index) ?? 0) >= route.times) return false;
      return pathMatches(route.path, path) && queryMatches(route.query, url.searchParams);
    });
    requests.push({
      method,
      path,
      query: url.searchParams,
      headers: req.headers,
      routeIndex,
      at: Date.now(),
    });
    const route = routes[routeIndex];
    if (!route) {
      res.writeHead(501, { 'content-type': 'text/plain' });
      res.end(`No fixture route for ${method} ${path}?${url.searchParams.toString()}`);
      return;
    }
    served.set(routeIndex, (served.get(routeIndex) ?? 0) + 1);
    if (route.hangUp) {
      req.socket.destroy();
      return;
    }
    const body = route.fixture
      ? readFileSync(join(PROVIDER_FIXTURES_DIR, route.fixture))
      : Buffer.from(route.body ?? '');
    const contentType = route.fixture
      ? CONTENT_TYPES[extname(route.fixture)]
      : 'text/plain; charset=utf-8';
    const respond = (): void => {
      if (res.destroyed) return;
      res.writeHead(route.status ?? 200, {
        'content-type': contentType ?? 'application/octet-stream',
        'content-length': String(body.length),
        ...route.headers,
      });
      res.end(body);
    };
    if (route.delayMs) {
      const timer = setTimeout(() => {
        timers.delete(timer);
        respond();
      }, route.delayMs);
      timers.add(timer);
    } else {
      respond();
    }
  };

  const server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    requestsTo: (path) => requests.filter((request) => pathMatches(path, request.path)),
    addRoute: (route) => {
      routes.push(route);
    },
    close: async () => {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve, reject) =>
        server.close((error) => (error ? reject(error) : resolve())),
      );
    },
  };
}

/** The environment that points every search provider (and arXiv PDFs) at a fixture server. */
export function providerEnvFor(base: string): Record<string, string> {
  return {
    OUTBOUND_ALLOW_PRIVATE: '1',
    ARXIV_API_URL: `${base}/arxiv`,
    ARXIV_PDF_URL: `${base}/arxiv-pdf`,
    PUBMED_API_URL: `${base}/pubmed`,
    CROSSREF_API_URL: `${base}/crossref`,
    OPENALEX_API_URL: `${base}/openalex`,
    SEMANTICSCHOLAR_API_URL: `${base}/semanticscholar`,
    ZENODO_API_URL: `${base}/zenodo`,
    YOUTUBE_API_URL: `${base}/youtube`,
  };
}

/**
 * One recorded search answer for every provider (PubMed and YouTube need two requests each): what a
 * page, a script or a benchmark that just needs "search works" serves. `delayMs` stands for the
 * providers' own latency.
 */
export function everyProviderRoutes(delayMs = 0): FixtureRoute[] {
  const routes: FixtureRoute[] = [
    { path: '/arxiv/query', fixture: 'arxiv/query_all-testing_start0_max10.xml' },
    { path: '/pubmed/esearch.fcgi', fixture: 'pubmed/esearch_term-biopython.xml' },
    { path: '/pubmed/efetch.fcgi', fixture: 'pubmed/efetch_pubmed_two_articles_abstracts.xml' },
    {
      path: '/crossref/works',
      fixture: 'crossref/works_query-ecology_query.author-carl-boettiger.json',
    },
    {
      path: '/openalex/works',
      fixture: 'openalex/works_filter-title.search_augmenting-llm-chemistry-tools.json',
    },
    {
      path: '/semanticscholar/paper/search',
      fixture: 'semanticscholar/paper_search_turing_all-fields_limit100.json',
    },
    { path: '/zenodo/records', fixture: 'zenodo/records_search_q-title_size2_page1.json' },
    { path: '/youtube/search', fixture: 'youtube/search_list_q-surfing_page1.json' },
    { path: '/youtube/videos', fixture: 'youtube/videos_list_multiple_ids.json' },
  ];
  return routes.map((route) => ({ ...route, delayMs }));
}
