/**
 * Finding citation keys across the workspaces a user may read (GET /api/library/citation-keys): for
 * editor plug-ins and the app's picker. Every word typed must be in the key, the title or an author's
 * name (any case, with or without accents); exact keys first, then keys that begin with the text.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../platform/db/client.js';
import { citedCreators, type BibRecord } from '../records/index.js';
import { readableWorkspaces } from '../workspaces/index.js';

export interface CitationKeyRow {
  id: string;
  citation_key: string;
  title: string;
  record: BibRecord | null;
  authors: string[];
  year: number | null;
  workspace_id: string;
  workspace_name: string;
}

/** At most this many words of `q` are matched (the rest are ignored). */
const WORDS_MAX = 8;

const likeAny = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
const unaccented = (text: SQL) => sql`unaccent('unaccent'::regdictionary, ${text})`;

export async function findCitationKeys(
  db: Db,
  actor: { id: string },
  q: string,
  limit: number,
): Promise<{ rows: CitationKeyRow[]; total: number }> {
  const text = q.trim();
  const words = text.split(/\s+/).filter(Boolean).slice(0, WORDS_MAX);
  const matches = words.map((word) => {
    const pattern = unaccented(sql`${likeAny(word)}`);
    return sql`(lower(r.citation_key) like lower(${likeAny(word)})
      or ${unaccented(sql`r.title`)} ilike ${pattern}
      or ${unaccented(sql`r.authors::text`)} ilike ${pattern})`;
  });
  const statement = sql`
    select r.id, r.citation_key, r.title, r.record, r.authors, r.year,
           workspaces.id as workspace_id, workspaces.name as workspace_name,
           count(*) over () as total
      from workspaces
      join workspace_resources r on r.workspace_id = workspaces.id
     where ${readableWorkspaces(actor)} and r.citation_key is not null
       ${matches.length ? sql`and ${sql.join(matches, sql` and `)}` : sql``}
     order by case when lower(r.citation_key) = lower(${text}) then 0
                   when lower(r.citation_key) like lower(${`${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`}) then 1
                   else 2 end,
              lower(r.citation_key), workspaces.name, r.id
     limit ${limit}`;
  const result: unknown = await db.execute<Record<string, unknown>>(statement);
  const rows = (result as { rows: Array<CitationKeyRow & { total: number | string }> }).rows;
  // Every row carries the count of all matches (the window runs before the limit); none, none.
  return { rows, total: Number(rows[0]?.total ?? 0) };
}

/** "Vaswani et al. 2017", "Hinton & Salakhutdinov 2006", "World Health Organization 2020". */
function shortReference(
  row: Pick<CitationKeyRow, 'record' | 'authors' | 'year' | 'title'>,
): string {
  const names = citedCreators(row.record?.creators)
    .map((creator) =>
      creator.family
        ? `${creator.nonDroppingParticle ? `${creator.nonDroppingParticle} ` : ''}${creator.family}`
        : (creator.literal ?? creator.given ?? ''),
    )
    .filter(Boolean);
  const fallback = row.authors[0];
  const who =
    names.length > 2
      ? `${names[0]} et al.`
      : names.length === 2
        ? `${names[0]} & ${names[1]}`
        : (names[0] ?? fallback ?? row.title.slice(0, 60));
  return row.year === null ? who : `${who} ${row.year}`;
}

export function presentCitationKeyHit(row: CitationKeyRow) {
  return {
    citationKey: row.citation_key,
    resourceId: row.id,
    title: row.title,
    shortReference: shortReference(row),
    workspace: { id: row.workspace_id, name: row.workspace_name },
  };
}
