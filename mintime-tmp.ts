import pg from 'pg';
const client = new pg.Client({ connectionString: 'postgres://postgres@127.0.0.1:5432/rw_search_bench' });
await client.connect();
const queries = process.argv.slice(2);
const best = queries.map(() => Infinity);
for (let round = 0; round < 15; round++) {
  for (const [i, q] of queries.entries()) {
    const s = performance.now();
    await client.query(q);
    best[i] = Math.min(best[i]!, performance.now() - s);
  }
}
for (const [i, q] of queries.entries()) console.log(`${best[i]!.toFixed(1)} ms  ${q.slice(0, 150)}`);
await client.end();
