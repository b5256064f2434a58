/**
 * Library search's SQL: one statement finds, ranks, filters, pages and explains the hits, on PGlite and
 * PostgreSQL alike. Each resource, annotation and PDF page keeps a weighted `search` tsvector (a
 * generated column, migration 0010; GIN indexes on the resources' and annotations'): the title
 * weighs A; authors and tags B; abstract, notes and annotations C; PDF pages D. A PDF's whole text is
 * one more document (resource_pdf_documents, kept by triggers, migrations 0011 and 0026, with its
 * pages' pairs of consecutive words for phrases, and its resource's workspace, addition and year,
 * migration 0031), so finding the PDFs that hold a query reads one index entry per PDF, not one per
 * page, and no resource; a page is read only to show where. A resource is found when
 * its record, one of its annotations or its PDF holds the whole query; its rank is the sum of the
 * record's and its best annotation's `ts_rank` and, for its PDF, PDF_HIT_RANK: less than any title
 * hit, so a title hit ranks above a hit in the full text. A quoted phrase is found in records as in
 * PDFs, through their pairs of consecutive words (an index of each record's vector with its pairs,
 * migration 0028), not by checking the positions of every record holding its words.
 *
 * Documents and queries are read through `english_unaccent` (migration 0025: `english` with the
 * unaccent dictionary before the stemmer), so case and accents never matter: `muller` finds "Müller".
 */
import { sql, type SQL } from 'drizzle-orm';
import { executePrepared, type Db } from '../platform/db/client.js';
import type { LibraryQuery } from './query.js';

export type LibrarySort = 'relevance' | 'date' | 'added';

export interface LibrarySearch {
  /** The readable workspaces, as a condition on `workspaces` (workspaces' policy). */
  readable: SQL;
  workspaceId?: string;
  query: LibraryQuery | null;
  tag?: string;
  type?: string;
  yearFrom?: number;
  yearTo?: number;
  sort: LibrarySort;
  limit: number;
  offset: number;
}

/** Marks ts_headline puts around a hit (control characters, removed from the text beforehand). */
export const HIT_START = '\u0002';
export const HIT_END = '\u0003';
const MARKS = `StartSel="${HIT_START}", StopSel="${HIT_END}"`;
/** Short fields are shown whole; long ones as at most two fragments around the hits. */
const WHOLE = `HighlightAll=true, ${MARKS}`;
const FRAGMENTS = `MaxFragments=2, MaxWords=24, MinWords=8, FragmentDelimiter=" … ", ${MARKS}`;
/**
 * What a PDF holding the query adds to a resource's rank: about one D-weight hit. A constant, because
 * `ts_rank` would read every matching PDF's whole document (hundreds of kilobytes each), and a common
 * word is in most PDFs of a large library.
 */
const PDF_HIT_RANK = sql.raw('0.06');
/**
 * How many matching annotations each result explains its hit by. For the snippet, a PDF's pages are
 * read in order through the primary key and tested with `ts_match_vq` (what `@@` calls): the operator
 * would let the planner scan the GIN index for every page of the library that matches, once per result.
 */
const SNIPPETS_PER_SOURCE = 3;
/**
 * A PDF's hit is shown on its first matching page: a page's ts_headline costs about a millisecond. The
 * pages are read only for a hit found through its PDF (`in_pdf`): a record hit whose PDF lacks the
 * query would read every page's vector to find none.
 */
const PDF_PAGE_SNIPPETS = 1;
/**
 * A page's snippet is made from at most this many of its characters around its first hit, this many
 * of them before it: ts_headline parses all the text it is given, ~2,000 characters for a page.
 */
const PAGE_WINDOW = 480;
const PAGE_WINDOW_BEFORE = 160;
/** What a window's first or last word cut in two looks like, to be left out. */
const CUT_FIRST_WORD = String.raw`^\S*\s+`;
const CUT_LAST_WORD = String.raw`\s+\S*$`;

export interface LibraryHitRow {
  id: string;
  workspace_id: string;
  workspace_name: string;
  title: string;
  /** Null only before the start-up upgrade gave the resource its key. */
  citation_key: string | null;
  authors: string[];
  tags: string[];
  type: string | null;
  url: string | null;
  published: string | null;
  added_at: string;
  rank: number;
  total: number;
  title_h: string | null;
  authors_h: string | null;
  abstract_h: string | null;
  notes_h: string | null;
  tags_h: string[] | null;
  annotations_h: Array<{ id: string; text: string }> | null;
  pages_h: Array<{ page: number; text: string }> | null;
}

/** A resource's abstract as its search vector reads it (migration 0026). */
const ABSTRACT = sql.raw(`coalesce(d.record->>'abstract', d.data->>'abstract', '')`);

/** The text of `column` without the hit marks, so that the marks in a snippet are only ts_headline's. */
const unmarked = (column: SQL) => sql`translate(${column}, ${HIT_START + HIT_END}, '')`;
const headline = (column: SQL, options: string) =>
  sql`ts_headline('english_unaccent', ${unmarked(column)}, query.tsq, ${options})`;

/**
 * A PDF page's snippet (of the page `p`), from the text around its first hit: the first place where
 * one of the query's lexemes begins, case aside (a stem begins the words it stems from: `express`,
 * "Expression"), whole words only. A window whose headline marks nothing (a lexeme found inside another
 * word, a hit written with accents) gives way to the headline of the whole page. `offset 0` keeps the
 * window's headline a step of its own: inlined, PostgreSQL would work it out once per use.
 */
const pageHeadline = sql`(select coalesce(
      case when strpos(window_h.text, ${HIT_START}) > 0 then window_h.text end,
      ${headline(sql`p.text`, FRAGMENTS)})
    from (select case when found.at > 0 then ${headline(
      sql`regexp_replace(regexp_replace(substr(p.text, found.start, ${PAGE_WINDOW}),
            case when found.start > 1 then ${CUT_FIRST_WORD} else '^' end, ''),
            case when found.start + ${PAGE_WINDOW} <= length(p.text) then ${CUT_LAST_WORD} else '$' end, '')`,
      FRAGMENTS,
    )} end as text
      from (select at, greatest(1, at - ${PAGE_WINDOW_BEFORE}) as start
              from (select coalesce(min(nullif(strpos(lower(p.text), word), 0)), 0) as at
                      from unnest(query.words) as word) as first_hit) as found
    offset 0) as window_h)`;

/**
 * `YYYY-MM-DD`, `YYYY-MM` or `YYYY` of the record's date issued, as the user last set it (isoDateOf in
 * records/record.ts); for a row saved before records were kept, as its data has it.
 */
const publishedSql = (alias: string) => {
  const issued = (part: string, width: number) =>
    `lpad(${alias}.record->'issued'->>'${part}', ${width}, '0')`;
  return `case when ${alias}.record is null
      then coalesce(${alias}.data->>'publishedDate', ${alias}.data->>'date', ${alias}.data->>'year')
    when jsonb_typeof(${alias}.record->'issued'->'year') = 'number'
      then ${issued('year', 4)} || coalesce('-' || ${issued('month', 2)} || coalesce('-' || ${issued('day', 2)}, ''), '')
    end`;
};
const publishedOf = sql.raw(publishedSql('r'));

/**
 * The query: `websearch_to_tsquery` of the text and, when the last word is still being typed, the same
 * with its last lexeme matched as a prefix. A half-typed word's stem is not always a prefix of the whole
 * word's (`quasicry` stems to `quasicri`, `quasicrystal` to `quasicryst`), so the prefix is the stem or
 * the word unstemmed (`simple_unaccent`). Both lexemes are PostgreSQL's own, quoted by it in the tsquery's text
 * form, and the last one is replaced only when it is the typed word's stem, at the very end.
 */
function tsquery(query: LibraryQuery): SQL {
  const full = sql`websearch_to_tsquery('english_unaccent', ${query.text})`;
  if (!query.prefixWord) return sql`select ${full} as tsq`;
  return sql`select case
      when numnode(last_word) = 1 and numnode(last_raw) = 1 and right(typed::text, length(last_word::text)) = last_word::text
        then (left(typed::text, length(typed::text) - length(last_word::text)) || '(' || last_word::text || ':* | ' || last_raw::text || ':*)')::tsquery
      else typed end as tsq
    from (select ${full} as typed, websearch_to_tsquery('english_unaccent', ${query.prefixWord}) as last_word,
                 websearch_to_tsquery('simple_unaccent', ${query.prefixWord}) as last_raw) as parts`;
}

function orderBy(sort: LibrarySort, ranked: boolean): SQL {
  const added = sql`m.created_at desc, m.id desc`;
  if (sort === 'date') return sql`m.published desc nulls last, ${added}`;
  if (sort === 'relevance' && ranked) return sql`m.rank desc, ${added}`;
  return added;
}

/**
 * A record's search vector with its pairs of consecutive words: the expression of its GIN index
 * (migration 0028), written as the index has it so that the planner reads the index.
 */
const RECORD_WITH_PAIRS = sql.raw(
  '(r.search || array_to_tsvector(resource_pdf_page_pairs(r.search)))',
);

/** A lexeme of a tsquery's text form (quotes doubled inside); never one of the pairs, which hold a space. */
const OPERAND = String.raw`'((?:[^' ]|'')*)'`;
/** How many words a phrase can have and still be read whole as its pairs (one pair per pass). */
const PAIR_PASSES = 8;

/**
 * A phrase as the pairs of words a PDF document holds (migration 0026): `'gene' <-> 'express'` becomes
 * `'gene express' & 'express'`, `'a' <-> 'b' <-> 'c'` becomes `'a b' & 'b c' & 'c'`. Each pass reads
 * the first link of every chain (a lexeme not itself after `<->`); what is left (a link across a stop
 * word, `<2>`, a prefix in a phrase, a longer chain) becomes `&`. Only PostgreSQL's own text of the
 * query is rewritten, never what the user typed.
 */
function phraseAsPairs(text: SQL): SQL {
  return sql`regexp_replace(${pairsOf(text)}, '<[0-9-]+>', '&', 'g')`;
}

/** The links of two lexemes rewritten as pairs, and the other links left as they are. */
function pairsOf(text: SQL): SQL {
  let rewritten = text;
  for (let pass = 0; pass < PAIR_PASSES; pass++) {
    rewritten = sql`regexp_replace(${rewritten}, ${`(?<!<-> )${OPERAND} <-> ${OPERAND}`}, ${"'\\1 \\2' & '\\2'"}, 'g')`;
  }
  return rewritten;
}

/**
 * Any one of the query's lexemes (`'a' | 'b' | 'c':*`), negated ones too: what ts_headline marks in a
 * text (it marks every word matching one of them, whether or not the text holds the whole query).
 * Null for a query without lexemes.
 */
function anyOperand(text: SQL): SQL {
  return sql`(select string_agg(m[1], ' | ') from regexp_matches(${text}, ${String.raw`('(?:[^']|'')*'(?::[*A-D]+)?)`}, 'g') as m)::tsquery`;
}

/** The query's lexemes as they are written (`'gene' <-> 'express':*` gives `{gene,express}`). */
function operandWords(text: SQL): SQL {
  return sql`array(select replace(m[1], '''''', '''') from regexp_matches(${text}, ${OPERAND}, 'g') as m)`;
}

/**
 * The query, and how a PDF document is matched against it (`pdf_tsq`). Without a phrase, the query
 * itself. With one, its pairs, which the documents' index answers alone (checking a phrase's word
 * positions reads every document holding its words: ~120 MB for a common pair). The pairs say exactly
 * whether a page holds a phrase of two words; for any other phrase they only narrow the PDFs, whose
 * pages are then read (`pdf_check`). A query that leaves a phrase out (`-"a b"`) is matched as it is.
 */
function queryStatement(query: LibraryQuery): SQL {
  const text = sql`typed.tsq::text`;
  const chain = `<-> ${OPERAND}(?::\\*)? <`;
  return sql`select tsq, pdf_tsq, has_phrase and not exact as pdf_check, any_tsq, words,
                    has_phrase and not has_not as by_pairs from (
      select typed.tsq, ${text} ~ '<[0-9-]+>' as has_phrase, ${anyOperand(text)} as any_tsq,
             ${operandWords(text)} as words,
             strpos(${text}, '!') > 0 as has_not,
             case when ${text} ~ '<[0-9-]+>' and strpos(${text}, '!') = 0
                  then ${phraseAsPairs(text)}::tsquery else typed.tsq end as pdf_tsq,
             strpos(${text}, '!') = 0 and ${text} !~ '<[0-9]+>' and ${text} !~ ${chain}
               and ${pairsOf(text)} !~ '<' as exact
        from (${tsquery(query)}) as typed) as parts`;
}

/** The one statement behind a library search (the bench runs it bare and EXPLAINs it). */
export function librarySearchStatement(search: LibrarySearch): SQL {
  const { query } = search;
  const sortByDate = search.sort === 'date';
  // The filters, on the resource `r` of each way a hit is found, so that hits need no second read of it.
  const conditions: SQL[] = [sql`r.workspace_id in (select id from readable)`];
  if (search.tag !== undefined) {
    conditions.push(
      sql`exists (select 1 from jsonb_array_elements_text(r.tags) as tag where lower(tag) = lower(${search.tag}))`,
    );
  }
  if (search.type !== undefined) conditions.push(sql`r.type = lower(${search.type})`);
  if (search.yearFrom !== undefined) conditions.push(sql`r.year >= ${search.yearFrom}`);
  if (search.yearTo !== undefined) conditions.push(sql`r.year <= ${search.yearTo}`);
  const kept = sql.join(conditions, sql` and `);
  // A PDF hit carries its resource's workspace, addition and year in its document (migration 0031):
  // the resource itself is read only for a filter by tag or type.
  const pdfHits =
    search.tag === undefined && search.type === undefined
      ? sql`r`
      : sql`found join workspace_resources r on r.id = found.id`;
  // A record's rank (ts_rank reads its whole search vector) is worked out for every hit only when
  // the hits are sorted by it; otherwise for the page's rows alone.
  const rankedNow = search.sort === 'relevance';
  const recordRank = rankedNow ? sql`ts_rank(r.search, query.tsq)` : sql`0::real`;
  // What a hit carries to the sort: the resource's narrow columns, never its data or search vector.
  const columns = sql`r.id, r.workspace_id, r.created_at, r.year`;

  // Without words, every resource of the readable workspaces is a hit (the filters and sorts still apply).
  const hits = query
    ? sql`select id, workspace_id, created_at, year, sum(rank) as rank, bool_or(in_record) as in_record, bool_or(in_pdf) as in_pdf from (
          select ${columns}, ${recordRank} as rank, true as in_record, false as in_pdf
            from workspace_resources r, query where not query.by_pairs and r.search @@ query.tsq and ${kept}
          union all
          -- A phrase, through the record's pairs (query.pdf_tsq, as for a PDF; query.pdf_check when
          -- the pairs only narrow the records, whose positions are then checked).
          select ${columns}, ${recordRank}, true, false
            from workspace_resources r, query
           where query.by_pairs and ${RECORD_WITH_PAIRS} @@ query.pdf_tsq
             and (not query.pdf_check or r.search @@ query.tsq) and ${kept}
          union all
          select ${columns}, found.rank, false, false from (
              select a.resource_id, max(ts_rank(a.search, query.tsq)) as rank
                from annotations a, query where a.search @@ query.tsq group by a.resource_id
            ) as found join workspace_resources r on r.id = found.resource_id where ${kept}
          union all
          -- A PDF, through its one document (query.pdf_tsq says how). \`offset 0\` keeps the index scan
          -- a step of its own, run once: with it inlined, PostgreSQL (which guesses a common word's
          -- matches low) ran it again for every readable workspace. The pages, when they must be read,
          -- are read in order through the primary key and stop at the first that holds the query.
          select ${columns}, ${PDF_HIT_RANK}, false, true from (
              select f.resource_id as id, f.workspace_id, f.created_at, f.year from resource_pdf_documents f, query
               where f.search @@ query.pdf_tsq
                 and (not query.pdf_check or exists (
                       select 1 from resource_pdf_pages p
                        where p.resource_id = f.resource_id and ts_match_vq(p.search, query.tsq)))
              offset 0
            ) as ${pdfHits} where ${kept}
        ) as found group by id, workspace_id, created_at, year`
    : sql`select ${columns}, 0::real as rank, false as in_record, false as in_pdf from workspace_resources r where ${kept}`;

  // A field's headline is worked out only when the part of the record's search vector that holds the
  // field (its weight) has one of the query's lexemes: without one, ts_headline would mark nothing.
  const holds = (weight: 'a' | 'b' | 'c', then: SQL) =>
    sql`case when ts_match_vq(ts_filter(d.search, ${`{${weight}}`}), query.any_tsq) then ${then} end`;
  const snippets = query
    ? sql`${holds('a', headline(sql`d.title`, WHOLE))} as title_h,
        ${holds('b', headline(sql`(select string_agg(value, '; ') from jsonb_array_elements_text(d.authors))`, WHOLE))} as authors_h,
        ${holds('c', headline(sql`${ABSTRACT}`, FRAGMENTS))} as abstract_h,
        ${holds('c', headline(sql`d.notes`, FRAGMENTS))} as notes_h,
        ${holds('b', sql`(select jsonb_agg(${headline(sql`tag`, WHOLE)}) from jsonb_array_elements_text(d.tags) as tag)`)} as tags_h,
        (select jsonb_agg(jsonb_build_object('id', a.id, 'text', ${headline(sql`a.body`, FRAGMENTS)}) order by a.rank desc, a.created_at)
           from (select id, body, created_at, ts_rank(search, query.tsq) as rank from annotations
                 where resource_id = m.id and search @@ query.tsq order by rank desc, created_at limit ${SNIPPETS_PER_SOURCE}) as a) as annotations_h,
        (select jsonb_agg(jsonb_build_object('page', p.page, 'text', ${pageHeadline}) order by p.page)
           from (select page, text from resource_pdf_pages
                 where m.in_pdf and resource_id = m.id and ts_match_vq(search, query.tsq) order by page limit ${PDF_PAGE_SNIPPETS}) as p) as pages_h`
    : sql`null as title_h, null as authors_h, null as abstract_h, null as notes_h, null as tags_h, null as annotations_h, null as pages_h`;

  const ranked = query !== null;
  const pageEnd = search.offset + search.limit;
  // By date, the full date is in `data` (read for each row it sorts): only the rows whose year can
  // reach the page are read, those from the year of the page's last row on (all of them when there
  // are fewer hits, or the page reaches those without a year), and those without a year.
  const page = sortByDate
    ? sql`cutoff as (select year from counted order by year desc nulls last limit 1 offset ${pageEnd - 1}),
      page as (
        select * from (
          select c.*, ${publishedOf} as published from counted c join workspace_resources r on r.id = c.id
           where c.year is null or (select year from cutoff) is null or c.year >= (select year from cutoff)
        ) as m
         order by ${orderBy(search.sort, ranked)} limit ${search.limit} offset ${search.offset}
      )`
    : sql`page as (
        select m.*, null::text as published from counted m
         order by ${orderBy(search.sort, ranked)} limit ${search.limit} offset ${search.offset}
      )`;

  return sql`
    with query as (${query ? queryStatement(query) : sql`select null::tsquery as tsq`}),
    readable as (
      select id, name from workspaces
      where ${search.readable}${search.workspaceId ? sql` and id = ${search.workspaceId}` : sql``}
    ),
    hits as (${hits}),
    counted as (select hits.*, count(*) over () as total from hits),
    ${page}
    select m.id, m.workspace_id, w.name as workspace_name, d.title, d.citation_key, d.authors, d.tags, d.type, d.url,
           ${sql.raw(publishedSql('d'))} as published,
           to_char(m.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as added_at,
           (m.rank${rankedNow ? sql`` : sql` + case when m.in_record then ts_rank(d.search, query.tsq) else 0 end`})::float8 as rank,
           m.total::int as total,
           ${snippets}
      from page m join workspace_resources d on d.id = m.id join readable w on w.id = m.workspace_id, query
     order by ${orderBy(search.sort, ranked)}`;
}

export async function searchLibrary(db: Db, search: LibrarySearch): Promise<LibraryHitRow[]> {
  const statement = librarySearchStatement(search);
  // Planning the statement is a fifth of a search's cost: the searches people make most (words, a
  // workspace, a sort) are prepared statements, at most 24 texts, planned once per connection; with
  // a tag, type or year filter (up to 16 times as many texts) it is planned at each run.
  const filtered =
    search.tag !== undefined ||
    search.type !== undefined ||
    search.yearFrom !== undefined ||
    search.yearTo !== undefined;
  if (filtered) {
    const result: unknown = await db.execute<Record<string, unknown>>(statement);
    // Both drivers answer a raw statement with `{ rows }`.
    return (result as { rows: LibraryHitRow[] }).rows;
  }
  return executePrepared<LibraryHitRow>(db, statement);
}

/** How many resources match when the page asked for is past the end (the page's rows carry the total otherwise). */
export async function countLibraryHits(db: Db, search: LibrarySearch): Promise<number> {
  const rows = await searchLibrary(db, { ...search, offset: 0, limit: 1 });
  return rows[0]?.total ?? 0;
}
