import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createWorkspace } from '../../src/auth/admin.js';
import { connect } from '../../src/db/client.js';
import { startEmbedded } from '../../src/db/embedded.js';
import { migrate } from '../../src/db/migrate.js';
import { eventsCommitted, recordEvents } from '../../src/data/events.js';
import { importData } from '../../src/data/import/index.js';
import { startEvents } from '../../src/events/index.js';
import { startJobs } from '../../src/jobs/index.js';
import { metaAd, type MetaAdRecord } from '../sources/fakes/meta.js';
import { recreateDatabase } from './database.js';

// `npm run bench:events [-- --ads 10000 --samples 200 --embedded]`: the issue #36 targets of the webhooks, with the
// server's own dispatcher (woken by the writer's commit) and delivery jobs in this process, to a receiver on
// 127.0.0.1 that answers 200 at once.
//   1. Commit-to-delivery of single events at idle: a transaction records one event of a tracked page and commits;
//      the time until the receiver has it (`samples` of them, one at a time, 50 ms apart): p50, p99, max.
//   2. An import that changes N ads of a tracked brand (every ad of the page stops): the time from the import's last
//      commit to the last delivery at the receiver, and from the import's start.
// Database: BENCH_EVENTS_DATABASE_URL (default postgresql://postgres@127.0.0.1:5432/mi_bench_events), recreated each
// time; --embedded runs on the embedded PGlite instead.

const { values: opts } = parseArgs({ options: { ads: { type: 'string', default: '10000' }, samples: { type: 'string', default: '200' }, embedded: { type: 'boolean', default: false } } });
const N = Number(opts.ads);
const SAMPLES = Number(opts.samples);
const url = process.env.BENCH_EVENTS_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/mi_bench_events';
const quiet = { info: () => {}, warn: (object: object, message: string) => console.error(message, object) };
process.env.WEBHOOK_ALLOW_PRIVATE = 'true';

const recreate = () => recreateDatabase(url);

const embedded = opts.embedded ? await startEmbedded(null) : null;
if (!embedded) await recreate();
const db = connect(embedded?.url ?? url, { max: embedded ? 4 : 10 });
await migrate(db.pool);

// The receiver: when each webhook-id first arrived.
const arrived = new Map<string, number>();
const waiting = new Map<string, () => void>();
const receiver = createServer((request, response) => {
  request.resume();
  request.on('end', () => {
    const id = String(request.headers['webhook-id']);
    if (!arrived.has(id)) arrived.set(id, performance.now());
    waiting.get(id)?.();
    response.writeHead(200).end();
  });
});
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const target = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;

// A workspace that tracks one page, with a webhook for every event.
const { workspaceId } = await createWorkspace(db.prisma, { slug: 'bench-events', name: 'Bench events' });
const PAGE = '900000000000001';
const ads = Array.from({ length: N }, (_, i) => {
  const record: MetaAdRecord = { ...metaAd(i), page_id: PAGE, page_name: 'Bench Brand', ad_delivery_start_time: '2026-11-01' };
  delete record.ad_delivery_stop_time;
  return record;
});
const scratch = await mkdtemp(path.join(tmpdir(), 'mi-bench-events-'));
const importDay = async (records: object[], day: string) => {
  const file = path.join(scratch, `${day}.json`);
  await writeFile(file, JSON.stringify({ data: records }));
  return importData(db.pool, 'meta-ads', [file], { asOf: new Date(`${day}T10:00:00Z`) });
};
await importDay(ads, '2026-11-27');
const brandtracker = randomUUID();
await db.pool.query(`INSERT INTO "brandtrackers" ("id", "facebookPageId", "name") VALUES ($1, $2, 'Bench Brand')`, [brandtracker, PAGE]);
await db.pool.query(`INSERT INTO "brandtracker_links" ("workspaceId", "brandtrackerId") VALUES ($1::uuid, $2::uuid)`, [workspaceId, brandtracker]);

const events = startEvents(db.pool, { logger: quiet });
await events.drain(); // day 1's events, before any webhook: no deliveries
await db.pool.query(`INSERT INTO "webhooks" ("id", "workspaceId", "url", "eventTypes", "secret", "updatedAt") VALUES ($1, $2::uuid, $3, ARRAY['*'], $4, now())`, [
  randomUUID(), workspaceId, target, `whsec_${randomBytes(32).toString('base64')}`,
]);
const jobs = await startJobs(db.pool, { work: true, logger: quiet });

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

// 1. Single events at idle.
const latencies: number[] = [];
for (let i = 0; i < SAMPLES + 5; i++) {
  const client = await db.pool.connect();
  await client.query('BEGIN');
  const key = `bench:${i}:${Date.now()}`;
  await recordEvents(client, 'events', [{ type: 'ad.reach_jumped', dedupeKey: key, advertiserId: PAGE, adId: `facebook_${String(ads[i % N].id)}`, data: { before: { reach: 1 }, after: { reach: 2 } } }]);
  const { rows } = await client.query<{ id: string }>(`SELECT 'evt_' || e."id" AS "id" FROM "market_events" e WHERE e."dedupeKey" = $1`, [key]);
  const delivered = new Promise<void>((resolve) => waiting.set(rows[0].id, resolve));
  await client.query('COMMIT');
  const committed = performance.now();
  client.release();
  eventsCommitted();
  await delivered;
  waiting.delete(rows[0].id);
  if (i >= 5) latencies.push(arrived.get(rows[0].id)! - committed); // the first few warm the connections up
  await new Promise((resolve) => setTimeout(resolve, 50));
}
latencies.sort((a, b) => a - b);

// 2. An import that stops every ad of the tracked page.
const before = arrived.size;
const { rows: [{ max: lastEvent }] } = await db.pool.query<{ max: string }>(`SELECT coalesce(max(e."id"), 0)::text AS "max" FROM "market_events" e`);
const started = performance.now();
const summary = await importDay(ads.map((record) => ({ ...record, ad_delivery_stop_time: '2026-11-28T01:00:00+0000' })), '2026-11-28');
const imported = performance.now();
const { rows: [{ n: expected }] } = await db.pool.query<{ n: number }>(
  `SELECT count(*)::int AS "n" FROM "market_events" e WHERE e."advertiserId" = $1 AND e."id" > $2::bigint`,
  [PAGE, lastEvent],
);
const deadline = Date.now() + 300_000;
while (arrived.size - before < expected && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
const last = Math.max(...[...arrived.values()]);

const report = {
  database: embedded ? 'embedded PGlite' : 'PostgreSQL',
  idle: {
    samples: latencies.length,
    p50Ms: +percentile(latencies, 50).toFixed(1),
    p99Ms: +percentile(latencies, 99).toFixed(1),
    maxMs: +latencies.at(-1)!.toFixed(1),
    target: 'p99 commit-to-delivery ≤ 1 s',
  },
  import: {
    ads: N,
    updated: summary.updated,
    events: expected,
    delivered: arrived.size - before,
    importSeconds: +((imported - started) / 1000).toFixed(2),
    lastCommitToLastDeliverySeconds: +((last - imported) / 1000).toFixed(2),
    startToLastDeliverySeconds: +((last - started) / 1000).toFixed(2),
    target: 'commit of the import to the last delivery ≤ 10 s',
  },
};
console.log(JSON.stringify(report, null, 2));
await jobs.stop();
await events.stop();
receiver.close();
await db.close();
await embedded?.close();
await rm(scratch, { recursive: true, force: true });
process.exit(0);
