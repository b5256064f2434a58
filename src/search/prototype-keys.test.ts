/**
 * Every lookup search makes by a string a user or a provider supplies finds only its own keys: the
 * names every object inherits (`__proto__`, `constructor`, `toString`) are unknown, not Object's
 * properties (issue 33, item 7).
 */
import { describe, expect, it } from 'vitest';
import { resultTypeOf } from './filters.js';
import { resolveProviderId } from './identifiers.js';
import { parseProviderSelection } from './registry.js';
import { decodeHtmlEntities, parseMonth } from './text.js';

const INHERITED = ['__proto__', 'constructor', 'toString'] as const;

describe('lookups by a user-supplied name ignore inherited keys', () => {
  it.each(INHERITED)('providers=%s is an unknown provider', (name) => {
    expect(resolveProviderId(name)).toBeNull();
    expect(parseProviderSelection(`arxiv,${name}`)).toEqual({ ok: false, unknown: [name] });
  });

  it.each(INHERITED)("a provider's type %s is `other`", (name) => {
    expect(resultTypeOf(name)).toBe('other');
  });

  it.each(INHERITED)('&%s; is not an HTML entity: kept as written', (name) => {
    expect(decodeHtmlEntities(`a &${name}; b &amp; c`)).toBe(`a &${name}; b & c`);
  });

  it.each(INHERITED)('%s is not a month', (name) => {
    expect(parseMonth(name)).toBeUndefined();
  });
});
