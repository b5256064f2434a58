/**
 * "Update from source": a resource with a DOI, arXiv id or PMID is looked up again, now, and what the
 * lookup says differently is proposed field by field. Nothing is written here: the client applies the
 * changes it accepts with a PATCH (If-Match the version this answer names), so a change made meanwhile
 * is a 412 rather than overwritten.
 */
import { isDeepStrictEqual } from 'node:util';
import type { ResourceResolver } from '../../context.js';
import { conflict } from '../../platform/errors.js';
import type { BibRecord } from '../../records/index.js';
import { recordOf, resolveIdentifier } from '../commands.js';
import { recordOfRow, storedTypeOf } from './resource-record.js';
import {
  REFRESHABLE_FIELDS,
  ResourceUpdateBody,
  type ProposedValue,
  type RefreshableField,
  type RefreshProposal,
} from './schemas.js';
import type { ResourceRow } from './store.js';

/** The identifier a refresh looks up, most authoritative first (a DOI names the version of record). */
function identifierOf(record: BibRecord): { field: string; lookup: string } | null {
  if (record.doi) return { field: 'doi', lookup: record.doi };
  if (record.arxivId) return { field: 'arxivId', lookup: `arxiv:${record.arxivId}` };
  if (record.pmid) return { field: 'pmid', lookup: `pmid:${record.pmid}` };
  return null;
}

/** A text, names or a date as JSON carries it (no `undefined` members), so that equal values compare equal. */
function plain(value: unknown): ProposedValue | undefined {
  return value === undefined ? undefined : (JSON.parse(JSON.stringify(value)) as ProposedValue);
}

function isEmpty(value: unknown): boolean {
  return (
    value === undefined ||
    value === null ||
    value === '' ||
    (Array.isArray(value) && value.length === 0)
  );
}

/**
 * What the source says of each field. Creators in roles the source does not name (a translator, an
 * editor it does not list) are kept after its own, so that accepting its names clears nobody. The
 * type only when the provider names one (not the guess by provider that adding makes).
 */
function sourceFields(
  looked: ReturnType<typeof recordOf>,
  providerType: string | undefined,
  current: BibRecord,
): Partial<Record<RefreshableField, unknown>> {
  const fields: Partial<Record<RefreshableField, unknown>> = {
    title: looked.title,
    url: looked.url,
    type: providerType,
    ...looked.record,
  };
  const named = looked.record.creators;
  if (named?.length) {
    const roles = new Set(named.map((creator) => creator.role));
    fields.creators = [
      ...named,
      ...(current.creators ?? []).filter((creator) => !roles.has(creator.role)),
    ];
  }
  return fields;
}

/** The value as a PATCH of `field` would save it, or undefined when the PATCH would refuse it. */
function asPatched(field: RefreshableField, value: unknown): ProposedValue | undefined {
  const parsed = ResourceUpdateBody.safeParse({ [field]: value });
  return parsed.success ? plain((parsed.data as Record<string, unknown>)[field]) : undefined;
}

/**
 * Looks the resource's DOI (else arXiv id, else PMID) up through search and lists every field whose
 * looked-up value differs from the resource's and is not empty, each as a PATCH of it would save it
 * (a value the PATCH would refuse, such as an ISBN with a wrong check digit, is not proposed). A 409
 * `no_identifier` when the resource has none of the three; 404 naming the field when no provider
 * knows it; 503 when the providers do not answer.
 */
export async function proposeRefresh(
  resolve: ResourceResolver,
  resource: ResourceRow,
): Promise<RefreshProposal> {
  const record = recordOfRow(resource);
  const identifier = identifierOf(record);
  if (!identifier)
    throw conflict(
      'This resource has no DOI, arXiv id or PMID to look up: add one first (PATCH doi, arxivId or pmid)',
      { field: 'doi', reason: 'no_identifier' },
    );
  const found = await resolveIdentifier(resolve, identifier.lookup, identifier.field);
  // No identifier as the fallback title: an empty title is not proposed.
  const looked = recordOf(found, '');
  const source = sourceFields(looked, found.details?.type, record);
  const now: Record<RefreshableField, unknown> = {
    ...(record as Record<RefreshableField, unknown>),
    title: resource.title,
    url: resource.url,
    type: storedTypeOf(resource.type, record, resource.url),
  };
  const changes: RefreshProposal['changes'] = [];
  for (const field of REFRESHABLE_FIELDS) {
    if (isEmpty(source[field])) continue;
    const proposed = asPatched(field, source[field]);
    if (proposed === undefined || isEmpty(proposed)) continue;
    const current = plain(now[field]) ?? null;
    if (isDeepStrictEqual(current, proposed)) continue;
    // A DOI is the same DOI in any case (the DOI Handbook, 2.4).
    if (field === 'doi' && String(current).toLowerCase() === String(proposed).toLowerCase())
      continue;
    changes.push({ field, current, proposed });
  }
  return {
    resourceId: resource.id,
    version: resource.version,
    source: { provider: found.provider, id: found.id },
    changes,
  };
}
