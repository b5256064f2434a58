import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

describe('loadConfig', () => {
  it('runs on embedded defaults with an empty environment', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      dataDir: './data',
      appOrigin: 'http://localhost:3000',
      publicUrl: 'http://localhost:3000',
      emailConfirmation: 'off',
      rateLimits: { authenticatedPerHour: 1000, searchPerHour: 100, summarizePerHour: 50 },
    });
    expect(config.databaseUrl).toBeUndefined();
    expect(config.redisUrl).toBeUndefined();
    expect(config.oauth.google).toBeUndefined();
    expect(config.providers.urls.arxiv).toBe('http://export.arxiv.org/api');
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('derives APP_ORIGIN and PUBLIC_URL from PORT and HOST when they are unset', () => {
    expect(loadConfig({ PORT: '4000' })).toMatchObject({
      appOrigin: 'http://localhost:4000',
      publicUrl: 'http://localhost:4000',
    });
    expect(loadConfig({ PORT: '4000', HOST: '0.0.0.0' }).publicUrl).toBe('http://localhost:4000');
    expect(loadConfig({ PORT: '8080', HOST: 'research.example.org' }).appOrigin).toBe(
      'http://research.example.org:8080',
    );
    expect(loadConfig({ PORT: '8080', HOST: 'fd00::5' }).appOrigin).toBe('http://[fd00::5]:8080');
    // Set ones win, and PUBLIC_URL still follows APP_ORIGIN.
    expect(loadConfig({ PORT: '4000', APP_ORIGIN: 'https://app.example.org/' })).toMatchObject({
      appOrigin: 'https://app.example.org',
      publicUrl: 'https://app.example.org',
    });
    expect(loadConfig({ PORT: '4000', PUBLIC_URL: 'https://api.example.org' })).toMatchObject({
      appOrigin: 'http://localhost:4000',
      publicUrl: 'https://api.example.org',
    });
  });

  it('lists every problem at once', () => {
    let error: ConfigError | undefined;
    try {
      loadConfig({
        PORT: 'eighty',
        DATABASE_URL: 'not a url',
        NODE_ENV: 'production',
        KV_REST_API_URL: 'https://kv.example',
        GOOGLE_CLIENT_ID: 'id-only',
      });
    } catch (caught) {
      error = caught as ConfigError;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const text = error!.problems.join('\n');
    for (const name of [
      'PORT',
      'DATABASE_URL',
      'JWT_SECRET',
      'KV_REST_API_URL',
      'GOOGLE_CLIENT_ID',
    ])
      expect(text).toContain(name);
    expect(error!.problems.length).toBeGreaterThanOrEqual(5);
  });

  it('opens GET /metrics in development and test, shuts it in production, and asks for METRICS_TOKEN wherever it is set', () => {
    const token = 't'.repeat(32);
    const secret = 's'.repeat(32);
    expect(loadConfig({}).metrics).toEqual({ access: 'open' });
    expect(loadConfig({ NODE_ENV: 'test' }).metrics).toEqual({ access: 'open' });
    expect(loadConfig({ NODE_ENV: 'production', JWT_SECRET: secret }).metrics).toEqual({
      access: 'off',
    });
    expect(
      loadConfig({ NODE_ENV: 'production', JWT_SECRET: secret, METRICS_TOKEN: token }).metrics,
    ).toEqual({ access: 'token', token });
    expect(loadConfig({ METRICS_TOKEN: `  ${token} ` }).metrics).toEqual({
      access: 'token',
      token,
    });
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow(
      /METRICS_TOKEN: must be at least 32 characters/,
    );
    expect(() => loadConfig({ METRICS_TOKEN: 'x'.repeat(257) })).toThrow(
      /METRICS_TOKEN: must be at most 256 characters/,
    );
  });

  it('reads TRUST_PROXY as the number of proxies in front: on is one, off is none, anything else is refused', () => {
    expect(loadConfig({}).trustProxy).toBe(0);
    for (const on of ['1', 'true', 'yes'])
      expect(loadConfig({ TRUST_PROXY: on }).trustProxy).toBe(1);
    for (const off of ['0', 'false', 'no', ''])
      expect(loadConfig({ TRUST_PROXY: off }).trustProxy).toBe(0);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    for (const bad of ['all', '10.0.0.0/8', '-1', '12'])
      expect(() => loadConfig({ TRUST_PROXY: bad })).toThrow(/TRUST_PROXY/);
  });

  it('reads provider base addresses and limits from the environment', () => {
    const config = loadConfig({
      ARXIV_API_URL: 'http://127.0.0.1:9999/arxiv/',
      RATE_LIMIT_SEARCH_PER_HOUR: '5000',
    });
    expect(config.providers.urls.arxiv).toBe('http://127.0.0.1:9999/arxiv');
    expect(config.rateLimits.searchPerHour).toBe(5000);
  });
  it('stores files on disk by default, in an S3-compatible bucket with BLOB_STORE=s3, and says what is missing', () => {
    expect(loadConfig({}).blobStore).toEqual({ kind: 'disk' });
    expect(
      loadConfig({
        BLOB_STORE: 's3',
        S3_BUCKET: 'papers',
        S3_ENDPOINT: 'http://minio:9000',
        S3_FORCE_PATH_STYLE: 'true',
        S3_ACCESS_KEY_ID: 'id',
        S3_SECRET_ACCESS_KEY: 'secret',
      }).blobStore,
    ).toEqual({
      kind: 's3',
      bucket: 'papers',
      region: 'us-east-1',
      endpoint: 'http://minio:9000',
      forcePathStyle: true,
      accessKeyId: 'id',
      secretAccessKey: 'secret',
    });
    const problems = (() => {
      try {
        loadConfig({ BLOB_STORE: 's3', S3_ACCESS_KEY_ID: 'id', S3_ENDPOINT: 'not a url' });
        return [];
      } catch (error) {
        return (error as ConfigError).problems;
      }
    })();
    expect(problems).toEqual(
      expect.arrayContaining([
        'S3_BUCKET: is required with BLOB_STORE=s3',
        'S3_ACCESS_KEY_ID: S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together',
        expect.stringMatching(/^S3_ENDPOINT: /),
      ]),
    );
    expect(() => loadConfig({ BLOB_STORE: 'ftp' })).toThrow(/BLOB_STORE/);
  });
});
