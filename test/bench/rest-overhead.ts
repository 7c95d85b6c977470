// `npx tsx test/bench/rest-overhead.ts [--database URL] [--requests 400] [--rounds 5]`: what REST adds over GraphQL per request,
// in process. One app (src/server.ts) on a seeded bench database; its fetch handler is called, one request at a time,
// for the same field three ways: REST, GraphQL with REST's own selection (the document REST runs, printed) and
// GraphQL with the bench's selection (S2, S4). Rounds alternate the targets; each reports the CPU time and the wall time
// per request (means over the round, the best round kept). The database's time is in both; the difference is REST's.
import { parseArgs } from 'node:util';
import { OperationTypeNode, print } from 'graphql';
import { buildOperationNodeForField } from '@graphql-tools/utils';
import { createSofa } from 'sofa-api';
import { createAuthenticator } from '../../src/auth/authenticate.js';
import { connect } from '../../src/db/client.js';
import { KnownBalances } from '../../src/metering/balances.js';
import { ChargeBatcher } from '../../src/metering/charges.js';
import { createRateLimiter } from '../../src/metering/index.js';
import { createLogger } from '../../src/observability/logger.js';
import { createApp } from '../../src/server.js';
import { schema } from '../../src/schema/index.js';
import { benchWorkspace, popularAdId } from './database.js';
import { AD_DETAIL_SELECTION, AD_SUMMARY_SELECTION } from './selections.js';

const { values: opts } = parseArgs({
  options: {
    database: { type: 'string', default: 'postgresql://postgres@127.0.0.1:5432/mi_bench_small' },
    requests: { type: 'string', default: '400' },
    rounds: { type: 'string', default: '5' },
  },
});

const db = connect(opts.database!);
const { apiKey } = await benchWorkspace(db.prisma, 'overhead', 'REST overhead');
const ad = { id: await popularAdId(db.prisma) };
const unlimited = { capacity: 1e9, perSecond: 1e9 };
const rateLimiter = createRateLimiter({ read: unlimited, write: unlimited });
await rateLimiter.ready();
const app = createApp(
  {
    prisma: db.prisma, pool: db.pool, ledger: db.ledger,
    noHold: { balances: new KnownBalances(), charges: new ChargeBatcher(db.ledger) },
    authenticate: createAuthenticator(db.prisma, { cacheMs: 60_000 }),
    rateLimiter, metering: true, publicBaseUrl: 'http://bench.invalid', startedAt: new Date(),
  },
  { logger: createLogger({ level: 'error' }) },
);

/** The document REST runs for a root field, printed, with its variables inlined as GraphQL literals. */
function restSelection(field: string, args: string): string {
  const sofa = createSofa({ basePath: '/v1', schema });
  const node = buildOperationNodeForField({ kind: OperationTypeNode.QUERY, schema, field, models: sofa.models, ignore: sofa.ignore, circularReferenceDepth: sofa.depthLimit });
  const selection = print(node.selectionSet.selections[0]).replace(/^\w+(\([^)]*\))?/, `${field}(${args})`);
  return `{ ${selection} }`;
}

const SUMMARY = AD_SUMMARY_SELECTION;
const DETAIL = AD_DETAIL_SELECTION;

type Call = { name: string; method: string; path: string; body?: string };
const graphql = (name: string, query: string): Call => ({ name, method: 'POST', path: '/graphql', body: JSON.stringify({ query }) });
const scenarios: { id: string; calls: Call[] }[] = [
  {
    id: 'S2',
    calls: [
      { name: 'REST', method: 'GET', path: '/v1/ads?search=summer&limit=25' },
      graphql('GraphQL, REST selection', restSelection('ads', 'search: "summer", limit: 25')),
      graphql('GraphQL, bench selection', `{ ads(search: "summer", limit: 25) { data { ${SUMMARY} } pagination { page limit total totalPages } meta { totalRelation } } }`),
    ],
  },
  {
    id: 'S4',
    calls: [
      { name: 'REST', method: 'GET', path: `/v1/ads/${ad.id}` },
      graphql('GraphQL, REST selection', restSelection('ad', `adId: "${ad.id}"`)),
      graphql('GraphQL, bench selection', `{ ad(adId: "${ad.id}") { ${DETAIL} } }`),
    ],
  },
];

async function send(call: Call): Promise<number> {
  const response = await app.fetch(`http://bench.invalid${call.path}`, {
    method: call.method, body: call.body, headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
  });
  const text = await response.text();
  if (response.status !== 200 || text.includes('"errors"')) throw new Error(`${call.name} ${call.path}: ${response.status} ${text.slice(0, 300)}`);
  return text.length;
}

const requests = Number(opts.requests);
for (const scenario of scenarios) {
  const best = new Map<string, { cpu: number; wall: number; bytes: number }>();
  for (const call of scenario.calls) for (let i = 0; i < 100; i++) await send(call); // warm-up: V8, graphql-jit, Prisma
  for (let round = 0; round < Number(opts.rounds); round++) {
    for (const call of scenario.calls) {
      const cpu = process.cpuUsage();
      const start = performance.now();
      let bytes = 0;
      for (let i = 0; i < requests; i++) bytes = await send(call);
      const wall = (performance.now() - start) / requests;
      const used = process.cpuUsage(cpu);
      const perRequest = { cpu: (used.user + used.system) / 1000 / requests, wall, bytes };
      const known = best.get(call.name);
      if (!known || perRequest.cpu < known.cpu) best.set(call.name, perRequest);
    }
  }
  for (const [name, { cpu, wall, bytes }] of best) console.log(`${scenario.id} ${name.padEnd(26)} cpu ${cpu.toFixed(3)} ms/request, wall ${wall.toFixed(3)} ms/request, ${bytes} bytes`);
}
await rateLimiter.close();
await db.close();
process.exit(0);
