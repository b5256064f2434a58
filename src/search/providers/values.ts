/** Small readers for loosely typed API bodies: they return a value of the wanted type or undefined. */
import { XMLParser } from 'fast-xml-parser';

/** Longer is no address a provider means for a reader (and more than a saved resource may hold). */
const MAX_URL_LENGTH = 2048;

export function asString(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

/**
 * An http(s) URL, as the URL parser writes it, or undefined: a provider's `javascript:`, `data:` or
 * other scheme (or a value that is no URL) never enters the service, whatever field carries it.
 */
export function asHttpUrl(value: unknown): string | undefined {
  const raw = asString(value);
  if (!raw || raw.length > MAX_URL_LENGTH) return undefined;
  try {
    const url = new URL(raw);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

export function asNumber(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value)))
    return Number(value);
  return undefined;
}

export function asArray<T = unknown>(value: unknown): T[] {
  if (value === undefined || value === null) return [];
  return (Array.isArray(value) ? value : [value]) as T[];
}

export function asRecord(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/** Text content of a parsed XML element, whether the parser gave a string or `{ '#text': ... }`. */
export function xmlText(node: unknown): string | undefined {
  if (typeof node === 'string') return node;
  if (typeof node === 'number') return String(node);
  const record = asRecord(node);
  if (record && '#text' in record) return asString(record['#text']);
  return undefined;
}

/**
 * An XML parser for API bodies: namespace prefixes dropped (so both arXiv feed generations read the
 * same), attributes kept without prefix, values left as strings, entities (numeric too) decoded,
 * and the named elements always arrays.
 */
export function createXmlParser(options: { arrays: string[]; stopNodes?: string[] }): XMLParser {
  const arrays = new Set(options.arrays);
  return new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '',
    removeNSPrefix: true,
    parseTagValue: false,
    parseAttributeValue: false,
    trimValues: true,
    htmlEntities: true,
    stopNodes: options.stopNodes ?? [],
    isArray: (name) => arrays.has(name),
    // Callbacks get the parser's path object rather than a string built for every node (none reads it).
    jPath: false,
  });
}
