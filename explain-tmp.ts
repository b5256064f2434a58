import pg from 'pg';
import { drizzle } from 'drizzle-orm/node-postgres';
import { sql } from 'drizzle-orm';
import * as schema from './src/platform/db/schema.js';
import { parseLibraryQuery } from './src/library/query.js';
import { librarySearchStatement } from './src/library/store.js';
import { readableWorkspaces } from './src/workspaces/index.js';

const pool = new pg.Pool({ connectionString: 'postgres://postgres@127.0.0.1:5432/rw_search_bench' });
const db = drizzle(pool, { schema });
const { rows } = await pool.query(`select id from users where email = 'reader@bench.example'`);
const readable = readableWorkspaces({ id: rows[0].id });
const q = process.argv[2]!;
const sort = (process.argv[3] ?? 'relevance') as 'relevance';
const search = { readable, query: parseLibraryQuery(q), sort, limit: 20, offset: 0 };
const mode = process.env.MODE ?? 'analyze';
if (mode === 'time') {
  for (let i = 0; i < 5; i++) {
    const s = performance.now();
    await db.execute(librarySearchStatement(search));
    console.log(`${q}: ${(performance.now() - s).toFixed(1)} ms`);
  }
} else {
  const res = await db.execute(sql`explain (analyze, buffers) ${librarySearchStatement(search)}`);
  console.log(res.rows.map((r) => Object.values(r).join(' ')).join('\n'));
}
await pool.end();
