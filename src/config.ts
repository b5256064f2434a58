/**
 * The whole environment, validated once at start. This is the only module that reads `process.env`:
 * everything else receives a typed, frozen `Config`. An invalid environment stops the process with a
 * list of every problem, not just the first one.
 */
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

const optionalString = z
  .string()
  .optional()
  .transform((value) => (value === undefined || value.trim() === '' ? undefined : value.trim()));

const optionalUrl = optionalString.pipe(z.url().optional());

const flag = z
  .enum(['1', '0', 'true', 'false', 'yes', 'no', ''])
  .optional()
  .transform((value) => value === '1' || value === 'true' || value === 'yes');

/** A flag that is on unless set to an "off" value. */
const flagOnByDefault = z
  .enum(['1', '0', 'true', 'false', 'yes', 'no', ''])
  .optional()
  .transform((value) => !(value === '0' || value === 'false' || value === 'no'));

const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);

/**
 * How many proxies stand in front (0: none). A flag's "on" means one: the client's address is the
 * one that proxy saw (the last in X-Forwarded-For). Trusting every hop would let a client name its
 * own address by sending X-Forwarded-For itself, and so escape per-address rate limits.
 */
const proxyHops = z
  .string()
  .regex(
    /^(1|0|true|false|yes|no|[0-9])?$/,
    'must be on (1, true, yes), off (0, false, no) or the number of proxies in front (0-9)',
  )
  .optional()
  .transform((value) =>
    value === 'true' || value === 'yes' ? 1 : value && /^[0-9]$/.test(value) ? Number(value) : 0,
  );

/**
 * The search providers' public base addresses (docs/design.md, Search providers), their per-request
 * deadline and the answer-cache lifetime: defined here only; `<PROVIDER>_API_URL`,
 * SEARCH_PROVIDER_TIMEOUT_MS and SEARCH_CACHE_TTL_SECONDS replace them.
 */
export const SEARCH_PROVIDER_DEFAULTS = Object.freeze({
  urls: Object.freeze({
    arxiv: 'http://export.arxiv.org/api',
    pubmed: 'https://eutils.ncbi.nlm.nih.gov/entrez/eutils',
    crossref: 'https://api.crossref.org',
    openalex: 'https://api.openalex.org',
    semanticscholar: 'https://api.semanticscholar.org/graph/v1',
    zenodo: 'https://zenodo.org/api',
    youtube: 'https://www.googleapis.com/youtube/v3',
  }),
  timeoutMs: 8_000,
  cacheTtlSeconds: 300,
});

const providerUrl = (fallback: string) =>
  optionalUrl.transform((value) => (value ?? fallback).replace(/\/+$/, ''));

const EnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('127.0.0.1'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: optionalUrl,
  REDIS_URL: optionalUrl,
  KV_REST_API_URL: optionalUrl,
  KV_REST_API_TOKEN: optionalString,
  SMTP_URL: optionalUrl,
  BLOB_STORE: z.enum(['disk', 's3']).default('disk'),
  S3_BUCKET: optionalString,
  S3_REGION: z.string().trim().min(1).default('us-east-1'),
  S3_ENDPOINT: optionalUrl,
  S3_ACCESS_KEY_ID: optionalString,
  S3_SECRET_ACCESS_KEY: optionalString,
  S3_FORCE_PATH_STYLE: flag,
  MAIL_FROM: z.string().default('Research Workspace <no-reply@localhost>'),
  JWT_SECRET: optionalString.pipe(z.string().min(32, 'must be at least 32 characters').optional()),
  APP_ORIGIN: optionalUrl.transform((value) => value?.replace(/\/+$/, '')),
  PUBLIC_URL: optionalUrl.transform((value) => value?.replace(/\/+$/, '')),
  EMAIL_CONFIRMATION: z.enum(['required', 'off']).default('off'),
  BODY_LIMIT_BYTES: positiveInt(1024 * 1024),
  SHUTDOWN_DRAIN_MS: z.coerce.number().int().min(0).max(600_000).default(5000),
  TRUST_PROXY: proxyHops,

  GOOGLE_CLIENT_ID: optionalString,
  GOOGLE_CLIENT_SECRET: optionalString,
  GOOGLE_AUTHORIZATION_URL: providerUrl('https://accounts.google.com/o/oauth2/v2/auth'),
  GOOGLE_TOKEN_URL: providerUrl('https://oauth2.googleapis.com/token'),
  GOOGLE_USERINFO_URL: providerUrl('https://openidconnect.googleapis.com/v1/userinfo'),
  GITHUB_CLIENT_ID: optionalString,
  GITHUB_CLIENT_SECRET: optionalString,
  GITHUB_AUTHORIZATION_URL: providerUrl('https://github.com/login/oauth/authorize'),
  GITHUB_TOKEN_URL: providerUrl('https://github.com/login/oauth/access_token'),
  GITHUB_API_URL: providerUrl('https://api.github.com'),

  ARXIV_API_URL: providerUrl(SEARCH_PROVIDER_DEFAULTS.urls.arxiv),
  ARXIV_PDF_URL: providerUrl('https://arxiv.org/pdf'),
  PUBMED_API_URL: providerUrl(SEARCH_PROVIDER_DEFAULTS.urls.pubmed),
  CROSSREF_API_URL: providerUrl(SEARCH_PROVIDER_DEFAULTS.urls.crossref),
  OPENALEX_API_URL: providerUrl(SEARCH_PROVIDER_DEFAULTS.urls.openalex),
  SEMANTICSCHOLAR_API_URL: providerUrl(SEARCH_PROVIDER_DEFAULTS.urls.semanticscholar),
  ZENODO_API_URL: providerUrl(SEARCH_PROVIDER_DEFAULTS.urls.zenodo),
  YOUTUBE_API_URL: providerUrl(SEARCH_PROVIDER_DEFAULTS.urls.youtube),
  YOUTUBE_API_KEY: optionalString,
  SEMANTICSCHOLAR_API_KEY: optionalString,
  CONTACT_EMAIL: optionalString.pipe(z.email().optional()),
  SEARCH_PROVIDER_TIMEOUT_MS: positiveInt(SEARCH_PROVIDER_DEFAULTS.timeoutMs),
  SEARCH_CACHE_TTL_SECONDS: positiveInt(SEARCH_PROVIDER_DEFAULTS.cacheTtlSeconds),
  OUTBOUND_ALLOW_PRIVATE: flag,

  RATE_LIMIT_AUTHENTICATED_PER_HOUR: positiveInt(1000),
  RATE_LIMIT_SEARCH_PER_HOUR: positiveInt(100),
  RATE_LIMIT_SUMMARIZE_PER_HOUR: positiveInt(50),
  // Visitors (not signed in) behind one address together: a new anonymous cookie per request does not reset these.
  RATE_LIMIT_SEARCH_PER_HOUR_PER_IP: positiveInt(300),
  RATE_LIMIT_SUMMARIZE_PER_HOUR_PER_IP: positiveInt(150),
  RATE_LIMIT_SIGNIN_PER_15MIN_PER_IP: positiveInt(30),
  RATE_LIMIT_SIGNIN_PER_15MIN_PER_EMAIL: positiveInt(10),
  RATE_LIMIT_RESET_PER_HOUR_PER_IP: positiveInt(10),
  RATE_LIMIT_RESET_PER_HOUR_PER_EMAIL: positiveInt(5),
  RATE_LIMIT_SIGNUP_PER_HOUR_PER_IP: positiveInt(20),
  RATE_LIMIT_SHARE_PAGE_PER_MINUTE_PER_IP: positiveInt(60),
  // Invitations mailed (and members added) by one user, across their workspaces.
  RATE_LIMIT_INVITATIONS_PER_HOUR: positiveInt(30),
  // Workspaces joined through share links (attempts, whatever their answer) by one user.
  RATE_LIMIT_SHARE_JOINS_PER_HOUR: positiveInt(30),
  RATE_LIMIT_FEED_PER_HOUR: positiveInt(240),

  // Workspace change events (src/workspaces/events): how long the activity log keeps a change, and open streams.
  ACTIVITY_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(90),
  EVENT_STREAMS_PER_USER: positiveInt(8),
  EVENT_STREAMS_PER_PROCESS: positiveInt(2000),
  // Manual alert runs (POST /api/alerts/{id}/run) per user.
  RATE_LIMIT_ALERT_RUNS_PER_HOUR: positiveInt(10),

  ALERTS_ENABLED: flagOnByDefault,
  ALERTS_TICK_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
  ALERTS_PER_USER: z.coerce.number().int().min(1).max(1000).default(25),
  JOBS_HEARTBEAT_SECONDS: z.coerce.number().int().min(10).max(3600).default(30),
  IDEMPOTENCY_LEASE_SECONDS: z.coerce.number().int().min(2).max(600).default(15),

  // Worker threads (platform/worker-pool.ts) that read imported files and format citations off the request thread.
  // By default one fewer than the cores (the event loop's), at least 2 (so that one slow import does
  // not hold every citation) and at most 4 (each may hold WORKER_HEAP_MB). On two cores that is 2,
  // which the event loop still wins: the workers run at a lower priority (worker-pool.ts).
  WORKER_THREADS: z.coerce
    .number()
    .int()
    .min(1)
    .max(16)
    .default(Math.min(4, Math.max(2, availableParallelism() - 1))),
  WORKER_QUEUE: z.coerce.number().int().min(0).max(1000).default(16),
  WORKER_HEAP_MB: z.coerce.number().int().min(64).max(4096).default(512),
  IMPORT_PARSE_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(30_000),
  CITE_FORMAT_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(30_000),
  CITE_REQUESTS_PER_USER: z.coerce.number().int().min(1).max(100).default(2),
  CITE_REQUESTS_PER_PROCESS: z.coerce.number().int().min(1).max(1000).default(8),

  WEB_DIST_DIR: optionalString,
  METRICS_TOKEN: optionalString.pipe(
    z
      .string()
      .min(32, 'must be at least 32 characters')
      .max(256, 'must be at most 256 characters')
      .optional(),
  ),

  EMAILJS_SERVICE_ID: optionalString,
  EMAILJS_TEMPLATE_ID: optionalString,
  EMAILJS_PUBLIC_KEY: optionalString,
});

/**
 * Where a browser on this machine reaches the server: `PORT` and `HOST`, with a wildcard or loopback
 * host named `localhost`. The default for APP_ORIGIN and PUBLIC_URL, so that `PORT=4000 npm start`
 * hands out URLs on port 4000.
 */
function listenOrigin(host: string, port: number): string {
  const bare = host.replace(/^\[|\]$/g, '');
  const local = ['', '0.0.0.0', '::', '127.0.0.1', '::1', 'localhost'].includes(bare);
  const name = local ? 'localhost' : bare.includes(':') ? `[${bare}]` : bare;
  return `http://${name}:${port}`;
}

/** Rules across variables, checked on the raw environment so they are reported along with type errors. */
function crossFieldProblems(source: Record<string, string | undefined>): string[] {
  const set = (name: string) => Boolean(source[name]?.trim());
  const problems: string[] = [];
  if (source.NODE_ENV === 'production' && !set('JWT_SECRET'))
    problems.push('JWT_SECRET: is required in production');
  if (set('KV_REST_API_URL') !== set('KV_REST_API_TOKEN')) {
    problems.push('KV_REST_API_URL: KV_REST_API_URL and KV_REST_API_TOKEN must be set together');
  }
  if (source.BLOB_STORE?.trim() === 's3' && !set('S3_BUCKET'))
    problems.push('S3_BUCKET: is required with BLOB_STORE=s3');
  if (set('S3_ACCESS_KEY_ID') !== set('S3_SECRET_ACCESS_KEY')) {
    problems.push(
      'S3_ACCESS_KEY_ID: S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together',
    );
  }
  for (const provider of ['GOOGLE', 'GITHUB']) {
    if (set(`${provider}_CLIENT_ID`) !== set(`${provider}_CLIENT_SECRET`)) {
      problems.push(
        `${provider}_CLIENT_ID: ${provider}_CLIENT_ID and ${provider}_CLIENT_SECRET must be set together`,
      );
    }
  }
  return problems;
}

export type Env = z.output<typeof EnvSchema>;

export interface OAuthProviderConfig {
  clientId: string;
  clientSecret: string;
  authorizationUrl: string;
  tokenUrl: string;
  /** Google: the OIDC userinfo endpoint. GitHub: the REST API base (`/user`, `/user/emails`). */
  userInfoUrl: string;
}

export interface Config {
  env: 'development' | 'production' | 'test';
  version: string;
  port: number;
  host: string;
  logLevel: Env['LOG_LEVEL'];
  dataDir: string;
  databaseUrl?: string;
  redisUrl?: string;
  kvRest?: { url: string; token: string };
  smtpUrl?: string;
  mailFrom: string;
  /**
   * Where stored files (avatars, PDFs) live: `DATA_DIR/blobs` on disk, or an S3-compatible bucket that
   * several processes share (the secret key is never logged).
   */
  blobStore:
    | { kind: 'disk' }
    | {
        kind: 's3';
        bucket: string;
        region: string;
        endpoint?: string;
        accessKeyId?: string;
        secretAccessKey?: string;
        forcePathStyle: boolean;
      };
  jwtSecret?: string;
  appOrigin: string;
  publicUrl: string;
  emailConfirmation: 'required' | 'off';
  bodyLimitBytes: number;
  /**
   * After SIGTERM/SIGINT: how long the process still serves (readiness 503, every answer
   * `Connection: close`) so that a load balancer notices before it stops listening.
   */
  shutdownDrainMs: number;
  /** Proxies in front whose X-Forwarded-For is believed; 0: none. */
  trustProxy: number;
  secureCookies: boolean;
  oauth: { google?: OAuthProviderConfig; github?: OAuthProviderConfig };
  providers: {
    urls: {
      arxiv: string;
      pubmed: string;
      crossref: string;
      openalex: string;
      semanticscholar: string;
      zenodo: string;
      youtube: string;
    };
    arxivPdfUrl: string;
    youtubeApiKey?: string;
    semanticScholarApiKey?: string;
    contactEmail?: string;
    timeoutMs: number;
    cacheTtlSeconds: number;
  };
  outboundAllowPrivate: boolean;
  rateLimits: {
    authenticatedPerHour: number;
    searchPerHour: number;
    summarizePerHour: number;
    searchPerHourPerIp: number;
    summarizePerHourPerIp: number;
    signinPer15MinPerIp: number;
    signinPer15MinPerEmail: number;
    resetPerHourPerIp: number;
    resetPerHourPerEmail: number;
    signupPerHourPerIp: number;
    sharePagePerMinutePerIp: number;
    invitationsPerHour: number;
    alertRunsPerHour: number;
    shareJoinsPerHour: number;
    /** Fetches of one bibliography feed (src/workspaces/feeds), 304s included. */
    feedPerHour: number;
  };
  /** Workspace change events: days the activity log keeps, and the open event streams allowed per user and per process. */
  events: { activityRetentionDays: number; streamsPerUser: number; streamsPerProcess: number };
  /**
   * Saved searches that run on a schedule (src/alerts): whether this process ticks and works their jobs,
   * how often the schedule looks for due alerts, and how many alerts one user may keep.
   */
  alerts: { enabled: boolean; tickSeconds: number; perUser: number };
  /** Background jobs (platform/jobs.ts, pg-boss): a running job whose process sends no heartbeat for this long is retried. */
  jobs: { heartbeatSeconds: number };
  /** How long a claimed Idempotency-Key stays its process's without a renewal (platform/idempotency.ts). */
  idempotencyLeaseSeconds: number;
  /**
   * The worker threads that run work whose cost a user's input decides (STYLE.md rule 12): how many,
   * how many tasks may wait for one, and each one's heap; a task past its time or heap is stopped.
   */
  workers: { threads: number; queue: number; heapMb: number };
  /** Reading an imported file: how long it may take in a worker. */
  imports: { parseTimeoutMs: number };
  /** Formatting citations: how long one request may take in a worker, and how many may run at once per user and per process. */
  citations: { formatTimeoutMs: number; perUser: number; perProcess: number };
  emailjs: { serviceId?: string; templateId?: string; publicKey?: string };
  /** The built web app (`vite build`'s output) served at `/`. */
  webDistDir: string;
  /**
   * Who may read GET /metrics: `open` (development and test without METRICS_TOKEN), a bearer `token`,
   * or nobody (`off`: production without METRICS_TOKEN answers 404).
   */
  metrics: { access: 'open' } | { access: 'token'; token: string } | { access: 'off' };
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid environment:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

function readVersion(): string {
  const raw = readFileSync(new URL('../package.json', import.meta.url), 'utf8');
  return (JSON.parse(raw) as { version: string }).version;
}

const VERSION = readVersion();

/** `web/dist` beside package.json, wherever the service runs from (src/, dist/ or .test-build/). */
const DEFAULT_WEB_DIST_DIR = fileURLToPath(new URL('../web/dist', import.meta.url));

/** Validates an environment (normally `process.env`) into a frozen Config, or throws ConfigError listing every problem. */
/**
 * The origins the service trusts: the web app's and its own public one. A state-changing request
 * authenticated by cookies must come from one of them, and a password-reset link may point only there.
 */
export function allowedOrigins(
  config: Pick<Config, 'appOrigin' | 'publicUrl'>,
): ReadonlySet<string> {
  return new Set([new URL(config.appOrigin).origin, new URL(config.publicUrl).origin]);
}

export function loadConfig(source: Record<string, string | undefined> = process.env): Config {
  const parsed = EnvSchema.safeParse(source);
  const problems = [
    ...(parsed.success
      ? []
      : parsed.error.issues.map((issue) => `${issue.path.join('.') || '(env)'}: ${issue.message}`)),
    ...crossFieldProblems(source),
  ];
  if (!parsed.success || problems.length > 0) throw new ConfigError(problems);
  const env = parsed.data;
  const appOrigin = env.APP_ORIGIN ?? listenOrigin(env.HOST, env.PORT);
  const oauthProvider = (
    id: string | undefined,
    secret: string | undefined,
    urls: Omit<OAuthProviderConfig, 'clientId' | 'clientSecret'>,
  ): OAuthProviderConfig | undefined =>
    id && secret ? { clientId: id, clientSecret: secret, ...urls } : undefined;

  const config: Config = {
    env: env.NODE_ENV,
    version: VERSION,
    port: env.PORT,
    host: env.HOST,
    logLevel: env.LOG_LEVEL,
    dataDir: env.DATA_DIR,
    databaseUrl: env.DATABASE_URL,
    redisUrl: env.REDIS_URL,
    kvRest:
      env.KV_REST_API_URL && env.KV_REST_API_TOKEN
        ? { url: env.KV_REST_API_URL, token: env.KV_REST_API_TOKEN }
        : undefined,
    smtpUrl: env.SMTP_URL,
    mailFrom: env.MAIL_FROM,
    blobStore:
      env.BLOB_STORE === 's3' && env.S3_BUCKET
        ? {
            kind: 's3',
            bucket: env.S3_BUCKET,
            region: env.S3_REGION,
            endpoint: env.S3_ENDPOINT,
            accessKeyId: env.S3_ACCESS_KEY_ID,
            secretAccessKey: env.S3_SECRET_ACCESS_KEY,
            forcePathStyle: env.S3_FORCE_PATH_STYLE,
          }
        : { kind: 'disk' },
    jwtSecret: env.JWT_SECRET,
    appOrigin,
    publicUrl: env.PUBLIC_URL ?? appOrigin,
    emailConfirmation: env.EMAIL_CONFIRMATION,
    bodyLimitBytes: env.BODY_LIMIT_BYTES,
    shutdownDrainMs: env.SHUTDOWN_DRAIN_MS,
    trustProxy: env.TRUST_PROXY,
    secureCookies: env.NODE_ENV === 'production',
    oauth: {
      google: oauthProvider(env.GOOGLE_CLIENT_ID, env.GOOGLE_CLIENT_SECRET, {
        authorizationUrl: env.GOOGLE_AUTHORIZATION_URL,
        tokenUrl: env.GOOGLE_TOKEN_URL,
        userInfoUrl: env.GOOGLE_USERINFO_URL,
      }),
      github: oauthProvider(env.GITHUB_CLIENT_ID, env.GITHUB_CLIENT_SECRET, {
        authorizationUrl: env.GITHUB_AUTHORIZATION_URL,
        tokenUrl: env.GITHUB_TOKEN_URL,
        userInfoUrl: env.GITHUB_API_URL,
      }),
    },
    providers: {
      urls: {
        arxiv: env.ARXIV_API_URL,
        pubmed: env.PUBMED_API_URL,
        crossref: env.CROSSREF_API_URL,
        openalex: env.OPENALEX_API_URL,
        semanticscholar: env.SEMANTICSCHOLAR_API_URL,
        zenodo: env.ZENODO_API_URL,
        youtube: env.YOUTUBE_API_URL,
      },
      arxivPdfUrl: env.ARXIV_PDF_URL,
      youtubeApiKey: env.YOUTUBE_API_KEY,
      semanticScholarApiKey: env.SEMANTICSCHOLAR_API_KEY,
      contactEmail: env.CONTACT_EMAIL,
      timeoutMs: env.SEARCH_PROVIDER_TIMEOUT_MS,
      cacheTtlSeconds: env.SEARCH_CACHE_TTL_SECONDS,
    },
    outboundAllowPrivate: env.OUTBOUND_ALLOW_PRIVATE,
    rateLimits: {
      authenticatedPerHour: env.RATE_LIMIT_AUTHENTICATED_PER_HOUR,
      searchPerHour: env.RATE_LIMIT_SEARCH_PER_HOUR,
      summarizePerHour: env.RATE_LIMIT_SUMMARIZE_PER_HOUR,
      searchPerHourPerIp: env.RATE_LIMIT_SEARCH_PER_HOUR_PER_IP,
      summarizePerHourPerIp: env.RATE_LIMIT_SUMMARIZE_PER_HOUR_PER_IP,
      signinPer15MinPerIp: env.RATE_LIMIT_SIGNIN_PER_15MIN_PER_IP,
      signinPer15MinPerEmail: env.RATE_LIMIT_SIGNIN_PER_15MIN_PER_EMAIL,
      resetPerHourPerIp: env.RATE_LIMIT_RESET_PER_HOUR_PER_IP,
      resetPerHourPerEmail: env.RATE_LIMIT_RESET_PER_HOUR_PER_EMAIL,
      signupPerHourPerIp: env.RATE_LIMIT_SIGNUP_PER_HOUR_PER_IP,
      sharePagePerMinutePerIp: env.RATE_LIMIT_SHARE_PAGE_PER_MINUTE_PER_IP,
      invitationsPerHour: env.RATE_LIMIT_INVITATIONS_PER_HOUR,
      alertRunsPerHour: env.RATE_LIMIT_ALERT_RUNS_PER_HOUR,
      shareJoinsPerHour: env.RATE_LIMIT_SHARE_JOINS_PER_HOUR,
      feedPerHour: env.RATE_LIMIT_FEED_PER_HOUR,
    },
    events: {
      activityRetentionDays: env.ACTIVITY_RETENTION_DAYS,
      streamsPerUser: env.EVENT_STREAMS_PER_USER,
      streamsPerProcess: env.EVENT_STREAMS_PER_PROCESS,
    },
    alerts: {
      enabled: env.ALERTS_ENABLED,
      tickSeconds: env.ALERTS_TICK_SECONDS,
      perUser: env.ALERTS_PER_USER,
    },
    jobs: { heartbeatSeconds: env.JOBS_HEARTBEAT_SECONDS },
    idempotencyLeaseSeconds: env.IDEMPOTENCY_LEASE_SECONDS,
    workers: { threads: env.WORKER_THREADS, queue: env.WORKER_QUEUE, heapMb: env.WORKER_HEAP_MB },
    imports: { parseTimeoutMs: env.IMPORT_PARSE_TIMEOUT_MS },
    citations: {
      formatTimeoutMs: env.CITE_FORMAT_TIMEOUT_MS,
      perUser: env.CITE_REQUESTS_PER_USER,
      perProcess: env.CITE_REQUESTS_PER_PROCESS,
    },
    emailjs: {
      serviceId: env.EMAILJS_SERVICE_ID,
      templateId: env.EMAILJS_TEMPLATE_ID,
      publicKey: env.EMAILJS_PUBLIC_KEY,
    },
    webDistDir: env.WEB_DIST_DIR ?? DEFAULT_WEB_DIST_DIR,
    metrics: env.METRICS_TOKEN
      ? { access: 'token', token: env.METRICS_TOKEN }
      : { access: env.NODE_ENV === 'production' ? 'off' : 'open' },
  };
  return Object.freeze(config);
}
