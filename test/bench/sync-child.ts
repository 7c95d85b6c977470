import { connect } from '../../src/db/client.js';
import { syncSource } from '../../src/sources/index.js';

// One Meta sync in a process of its own (the bench's worker): prints the run, its wall time and the process's peak RSS.
const db = connect(process.env.DATABASE_URL!, { max: 3 });
const started = performance.now();
const run = await syncSource(db.pool, 'meta-ads', JSON.parse(process.env.SYNC_QUERY!), { trigger: 'bench' });
const ms = performance.now() - started;
await db.close();
process.stdout.write(`${JSON.stringify({ ms, run, peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024) })}\n`);
