/**
 * What merging a group of likely duplicates makes (POST …/duplicates/merge, src/workspaces/duplicates/
 * merge.ts, is the rule): the kept resource's fields, each field it lacks taken from the first of the
 * others (oldest first) that has it, creators from the first that has any when it has none, notes
 * joined (the kept one's first; a text already there not repeated), tags united, annotations moved,
 * a PDF moved when it has none. Pure: the duplicates view draws it before the user merges.
 */
import type { components } from '../../api/schema';
import { MERGE_FIELDS, recordFieldLabel, valueText, type RecordField } from './record-fields';

type Resource = components['schemas']['Resource'];

export interface PreviewRow {
  field: RecordField;
  label: string;
  text: string;
  /** The place in the group of the resource the value comes from; null: the kept one's own. */
  from: number | null;
}

export interface MergePreview {
  /** The others, in the order the merge names them (the group's, oldest first). */
  merge: Resource[];
  rows: PreviewRow[];
  notes: string;
  tags: string[];
  annotations: number;
  /** The place in the group of the resource whose PDF the kept one has after the merge, or null. */
  pdfFrom: number | null;
}

function isAbsent(value: unknown): boolean {
  return (
    value === undefined ||
    value === null ||
    (typeof value === 'string' && value.trim() === '') ||
    (Array.isArray(value) && value.length === 0)
  );
}

/** The tags, the kept one's first; one already there in another case is not added again. */
function unitedTags(resources: Resource[]): string[] {
  const seen = new Set<string>();
  return resources
    .flatMap((resource) => resource.tags)
    .filter((tag) => {
      const folded = tag.toLowerCase();
      if (seen.has(folded)) return false;
      seen.add(folded);
      return true;
    });
}

/** What a merge of `group` into the resource `keepId` makes (`keepId` must be one of the group). */
export function mergePreview(group: Resource[], keepId: string): MergePreview {
  const keepAt = Math.max(
    0,
    group.findIndex((resource) => resource.id === keepId),
  );
  const kept = group[keepAt]!;
  const others = group.map((resource, at) => ({ resource, at })).filter(({ at }) => at !== keepAt);
  const valueOf = (resource: Resource, field: RecordField): unknown =>
    (resource as unknown as Record<string, unknown>)[field];

  const rows: PreviewRow[] = [];
  for (const field of MERGE_FIELDS) {
    let value = valueOf(kept, field);
    let from: number | null = null;
    if (isAbsent(value)) {
      const giver = others.find(({ resource }) => !isAbsent(valueOf(resource, field)));
      if (giver) {
        value = valueOf(giver.resource, field);
        from = giver.at;
      }
    }
    const text = valueText(field, value);
    if (text) rows.push({ field, label: recordFieldLabel(field, kept.type), text, from });
  }

  const notes = [kept.notes.trim()];
  for (const { resource } of others) {
    const text = resource.notes.trim();
    if (text && !notes.includes(text)) notes.push(text);
  }
  const pdfGiver = kept.pdf ? keepAt : (others.find(({ resource }) => resource.pdf)?.at ?? null);
  return {
    merge: others.map(({ resource }) => resource),
    rows,
    notes: notes.filter(Boolean).join('\n\n'),
    tags: unitedTags([kept, ...others.map(({ resource }) => resource)]),
    annotations: group.reduce((sum, resource) => sum + resource.annotations.length, 0),
    pdfFrom: pdfGiver,
  };
}
