// The bench's PostGraphile 5 comparator, run by the Node 22 binary fetched into test/bench/.comparators
// (PostGraphile 5 needs Node >= 22). Library mode, amber preset + simplify-inflection, grafserv on node:http,
// the same PostgreSQL database as the project. Exposes only the tables the GraphQL scenarios read (read-only,
// no mutations, no functions of the project) and the bench's search function (bench.search_ads, created by run.ts). No authentication,
// no metering. The bench preloads probe.cjs (BENCH_PG_MODULE points it at this pg) to count statements.
const { createServer } = require('node:http');
const path = require('node:path');

const dir = process.env.BENCH_COMPARATORS;
const load = (id) => require(require.resolve(id, { paths: [dir] }));
const pg = load('pg');
const { postgraphile } = load('postgraphile');
const { grafserv } = load('postgraphile/grafserv/node');
const { PostGraphileAmberPreset } = load('postgraphile/presets/amber');
const { makePgService } = load('postgraphile/adaptors/pg');
const { jsonPgSmartTags } = load('postgraphile/utils');
const { PgSimplifyInflectionPreset } = load('@graphile/simplify-inflection');

const EXPOSED = ['ads', 'advertisers', 'shops', 'advertiser_shops', 'ad_reach_days', 'ad_transcripts', 'ad_hooks', 'advertiser_metric_days'];

async function main() {
  // Same pool size as the project and the floor (src/db/client.ts: max 8).
  const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 8 });
  const tables = await pool.query(`SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public'`);
  const functions = await pool.query(`SELECT DISTINCT p.proname AS name FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = 'public'`);
  const hide = (rows) => Object.fromEntries(rows.map((row) => row.name).filter((name) => !EXPOSED.includes(name)).map((name) => [name, { tags: { behavior: '-*' } }]));
  const preset = {
    extends: [PostGraphileAmberPreset, PgSimplifyInflectionPreset],
    plugins: [jsonPgSmartTags({ version: 1, config: { class: hide(tables.rows), procedure: hide(functions.rows) } })],
    // No Relay global ids (the amber inflection still names the `id` column `rowId`: the bench's queries alias
    // it back to `id`); ordering by unindexed columns
    // (advertiser_shops.isPrimary) is refused by default, and the detail query orders shops by it.
    disablePlugins: ['NodePlugin', 'PgIndexBehaviorsPlugin'],
    schema: { defaultBehavior: '-insert -update -delete' },
    pgServices: [makePgService({ pool, schemas: ['public', 'bench'], pubsub: false })],
    grafserv: { port: Number(process.env.PORT), host: '127.0.0.1', graphiql: false, watch: false },
    grafast: { explain: false },
  };
  const pgl = postgraphile(preset);
  const serv = pgl.createServ(grafserv);
  const server = createServer();
  await serv.addTo(server);
  await pgl.getSchema();
  server.listen(Number(process.env.PORT), '127.0.0.1', () => process.send?.({ ready: Number(process.env.PORT) }));
  process.on('SIGTERM', () => {
    server.close();
    Promise.resolve(pgl.release()).finally(() => pool.end().finally(() => process.exit(0)));
  });
  if (process.env.BENCH_PRINT_SCHEMA) {
    const { printSchema } = load('postgraphile/graphql');
    require('node:fs').writeFileSync(path.resolve(process.env.BENCH_PRINT_SCHEMA), printSchema(await pgl.getSchema()));
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
