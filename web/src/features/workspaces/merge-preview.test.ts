/** What a merge of duplicates makes, as the duplicates view shows it before the user merges. */
import { describe, expect, it } from 'vitest';
import type { components } from '../../api/schema';
import { mergePreview } from './merge-preview';

type Resource = components['schemas']['Resource'];

let made = 0;
function resource(fields: Partial<Resource>): Resource {
  made += 1;
  return {
    id: `00000000-0000-4000-8000-${String(made).padStart(12, '0')}`,
    workspaceId: '00000000-0000-4000-8000-ffffffffffff',
    resourceId: null,
    addedBy: null,
    title: 'A title',
    citationKey: `key${made}`,
    url: null,
    type: 'article-journal',
    authors: [],
    creators: [],
    tags: [],
    notes: '',
    notesUpdatedBy: null,
    notesUpdatedAt: null,
    data: {},
    year: null,
    venue: null,
    version: 1,
    createdAt: '2024-01-01T00:00:00.000Z',
    addedAt: '2024-01-01T00:00:00.000Z',
    annotations: [],
    pdf: null,
    ...fields,
  };
}

describe('mergePreview', () => {
  const oldest = resource({
    title: 'Attention',
    doi: '10.1/x',
    notes: 'Read this.',
    tags: ['ML'],
  });
  const middle = resource({
    title: 'Attention (preprint)',
    creators: [{ role: 'author', family: 'Vaswani', given: 'Ashish' }],
    pages: '1-10',
    issued: { year: 2017 },
    notes: 'Read this.',
    tags: ['ml', 'nlp'],
  });
  const newest = resource({ pages: '5-6', volume: '30', notes: 'Cited in ch. 2.' });
  const group = [oldest, middle, newest];

  it('keeps the kept one’s fields and takes each it lacks from the first of the others that has it', () => {
    const preview = mergePreview(group, oldest.id);
    expect(preview.merge.map((each) => each.id)).toEqual([middle.id, newest.id]);
    const rows = Object.fromEntries(preview.rows.map((row) => [row.field, row]));
    expect(rows.title).toMatchObject({ text: 'Attention', from: null });
    expect(rows.doi).toMatchObject({ text: '10.1/x', from: null, label: 'DOI' });
    expect(rows.creators).toMatchObject({ text: 'Vaswani, Ashish', from: 1 });
    expect(rows.pages).toMatchObject({ text: '1-10', from: 1 });
    expect(rows.volume).toMatchObject({ text: '30', from: 2 });
    expect(rows.issued).toMatchObject({ text: '2017', from: 1, label: 'Date' });
  });

  it('joins the notes without repeating one, unites the tags whatever their case', () => {
    const preview = mergePreview(group, oldest.id);
    expect(preview.notes).toBe('Read this.\n\nCited in ch. 2.');
    expect(preview.tags).toEqual(['ML', 'nlp']);
  });

  it('follows the version chosen to keep', () => {
    const preview = mergePreview(group, newest.id);
    expect(preview.merge.map((each) => each.id)).toEqual([oldest.id, middle.id]);
    const rows = Object.fromEntries(preview.rows.map((row) => [row.field, row]));
    expect(rows.pages).toMatchObject({ text: '5-6', from: null });
    expect(rows.doi).toMatchObject({ from: 0 });
    expect(preview.notes).toBe('Cited in ch. 2.\n\nRead this.');
  });

  it('counts the annotations and says whose PDF the kept one ends with', () => {
    const pdf = { extraction: 'done' } as unknown as NonNullable<Resource['pdf']>;
    const withPdf = resource({ pdf });
    const without = resource({});
    expect(mergePreview([without, withPdf], without.id).pdfFrom).toBe(1);
    expect(mergePreview([withPdf, without], withPdf.id).pdfFrom).toBe(0);
    expect(mergePreview([without, resource({})], without.id).pdfFrom).toBeNull();
  });
});
