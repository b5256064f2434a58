/** Test helpers: a real outbound client allowed to reach 127.0.0.1, fast limiters, and the fixture server. */
import { createOutbound } from '../../platform/outbound.js';
import type { Outbound } from '../../platform/outbound.js';
import { createProviderLimiter } from '../provider-limiter.js';
import type { ProviderLimiter } from '../provider-limiter.js';
import { createProviders } from '../registry.js';
import type { ProviderSettings, SearchProviders } from '../registry.js';
import { PROVIDER_IDS } from '../types.js';
import type { ProviderFactoryOptions, ProviderId } from '../types.js';

export { readFixture, startFixtureServer } from '../../../test/support/fixture-server.js';
export type { FixtureRoute, FixtureServer } from '../../../test/support/fixture-server.js';

export function createTestOutbound(): Outbound & { close(): Promise<void> } {
  return createOutbound({ allowPrivate: true, userAgent: 'test' });
}

/** A limiter that never slows a test down (tests of politeness use the providers' real ones). */
export function unlimited(): ProviderLimiter {
  return createProviderLimiter({ requestsPerSecond: 10_000, maxConcurrency: 100 });
}

export function factoryOptions(
  baseUrl: string,
  outbound: Outbound,
  extra: Partial<ProviderFactoryOptions> = {},
): ProviderFactoryOptions {
  return { baseUrl, outbound, timeoutMs: 5_000, limiter: unlimited(), ...extra };
}

/** All seven providers pointed at one fixture server, each under its own path prefix (`/arxiv`, ...). */
export function providersAt(
  serverUrl: string,
  outbound: Outbound,
  extra: Partial<ProviderSettings> = {},
): SearchProviders {
  const urls = Object.fromEntries(PROVIDER_IDS.map((id) => [id, `${serverUrl}/${id}`])) as Record<
    ProviderId,
    string
  >;
  const limiters = Object.fromEntries(PROVIDER_IDS.map((id) => [id, unlimited()])) as Record<
    ProviderId,
    ProviderLimiter
  >;
  return createProviders({ outbound, urls, timeoutMs: 5_000, limiters, ...extra });
}
