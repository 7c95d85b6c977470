import { connect } from '../../../src/db/client.js';
import { syncSource } from '../../../src/sources/index.js';

// A sync run in a process of its own, for test/sources/sync.test.ts to kill mid-way: `node --import tsx sync-child.ts
// <database url> <source> <query JSON> <asOf> [hang at page]`. Prints `page N` as each page is written (inside its
// transaction, before the commit), then `done`; at page `hang at page` it stops dead inside that transaction, so a kill
// lands there for sure. The source settings come from the environment, as for the CLI.

const [url, source, query, asOf, hang] = process.argv.slice(2);
const db = connect(url, { max: 2 });
const run = await syncSource(db.pool, source, JSON.parse(query), {
  asOf: new Date(asOf),
  http: { retries: 3, baseDelayMs: 5, maxDelayMs: 20 },
  onPage: (row) => {
    process.stdout.write(`page ${row.pages}\n`);
    if (String(row.pages) === hang) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 30_000);
  },
});
process.stdout.write(`done ${run.status}\n`);
await db.close();
