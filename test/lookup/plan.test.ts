import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Prisma } from '../../src/generated/prisma/client.js';
import { fuzzyNameHits, lookupSource, termsOf } from '../../src/schema/lookup/sql.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { discoveryScenario } from '../support/discovery-scenario.js';

// The fuzzy name matches of GET /v1/lookup are answered by the trigram indexes, not by a scan of every advertiser
// or shop computing a similarity per row: priced by pg_trgm as cheap as an equality, `name % q OR name %> q` over
// thousands of names was planned as the whole-table scan (30 ms at the bench's small scale, growing with the
// market). Migration 0019 gives the operators their real price.

let t: TestApp;
let workspaceId: string;

beforeAll(async () => {
  t = await createTestApp(discoveryScenario);
  ({ workspaceId } = await t.newKey());
  // 6,000 more advertisers and shops with names made of other words, as many as the bench's small market has advertisers.
  await t.db.prisma.$executeRaw`INSERT INTO "advertisers" ("id", "name")
    SELECT (9000000000000 + n)::text, 'Brand ' || md5(n::text) FROM generate_series(1, 6000) n`;
  await t.db.prisma.$executeRaw`INSERT INTO "shops" ("id", "domain", "name")
    SELECT gen_random_uuid(), 'shop' || n || '.example', 'Store ' || md5(n::text) FROM generate_series(1, 6000) n`;
  await t.db.prisma.$executeRaw`ANALYZE "advertisers"`;
  await t.db.prisma.$executeRaw`ANALYZE "shops"`;
});
afterAll(() => t?.close());

type PlanNode = { 'Node Type': string; 'Relation Name'?: string; 'Index Name'?: string; Plans?: PlanNode[] };
const nodes = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodes)];

describe('the fuzzy name matches of a lookup', () => {
  for (const type of ['advertiser', 'shop'] as const) {
    it(`read the ${type}s through the trigram index, never a sequential scan`, async () => {
      const statement = lookupSource(type, termsOf('nordic glo'), 20, workspaceId);
      const [{ 'QUERY PLAN': plan }] = await t.db.prisma.$queryRawUnsafe<{ 'QUERY PLAN': unknown }[]>(`EXPLAIN (FORMAT JSON) ${statement.text}`, ...statement.values);
      const [{ Plan: root }] = (typeof plan === 'string' ? JSON.parse(plan) : plan) as { Plan: PlanNode }[];
      // The matching itself (the hits, below the DISTINCT ON that keeps one per record); how the few matches
      // are then joined to their details is the planner's choice by table size.
      const matching = nodes(nodes(root).find((node) => node['Node Type'] === 'Unique')!);
      const scans = matching.filter((node) => node['Relation Name'] === 'advertisers' || node['Relation Name'] === 'shops');
      expect(scans.map((node) => node['Node Type'])).not.toContain('Seq Scan');
      expect(matching.some((node) => node['Node Type'] === 'Bitmap Index Scan' && node['Index Name'] === `${type}s_name_trgm_idx`)).toBe(true);
    });
  }
});

// The close names (word similarity >= 0.5, migration 0020's functions) answer when there are `limit` of them; the
// full match (similarity >= 0.3 or word similarity >= 0.6) only otherwise. Both must give the rows the full
// match alone gives, in the same order.
describe('the fuzzy name matches, close names first', () => {
  const TABLES = { advertiser: Prisma.sql`"advertisers" v`, shop: Prisma.sql`(SELECT "id"::text AS "id", "name" FROM "shops") v` };
  const full = (source: keyof typeof TABLES, q: string, limit: number) => t.db.prisma.$queryRaw<{ key: string; score: number }[]>`
    SELECT v."id" AS key, 0.99 * greatest(similarity(v."name", ${q}), word_similarity(${q}, v."name"))::float8 AS score
    FROM ${TABLES[source]} WHERE v."name" % ${q} OR v."name" %> ${q} ORDER BY 2 DESC, 1 LIMIT ${limit}`;
  const found = (source: keyof typeof TABLES, q: string, limit: number) => t.db.prisma.$queryRaw<{ key: string; score: number }[]>`
    SELECT DISTINCT key, score FROM ${fuzzyNameHits(source, q, limit)} h ORDER BY score DESC, key LIMIT ${limit}`;
  const close = async (source: keyof typeof TABLES, q: string, limit: number) => {
    const fn = source === 'advertiser' ? Prisma.sql`lookup_close_advertiser_names` : Prisma.sql`lookup_close_shop_names`;
    const [{ n }] = await t.db.prisma.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM ${fn}(${q}, ${limit})`;
    return n;
  };

  for (const source of ['advertiser', 'shop'] as const) {
    it(`${source}s: the same rows as every match, whether the close names suffice or not`, async () => {
      const queries = ['nordic glo', 'nordic glow', source === 'advertiser' ? 'brand 1a' : 'store 1a', 'brand', 'store', 'glo', 'qqqq zzzz'];
      const paths = new Set<string>();
      for (const q of queries) {
        for (const limit of [1, 3, 10]) {
          const expected = await full(source, q, limit);
          expect(await found(source, q, limit), `${q} (limit ${limit})`).toEqual(expected);
          paths.add((await close(source, q, limit)) >= limit ? 'close' : 'fallback');
        }
      }
      expect([...paths].sort()).toEqual(['close', 'fallback']);
    });
  }

  it('leaves the session\'s trigram thresholds as they were', async () => {
    await t.db.prisma.$transaction(async (tx) => {
      await tx.$queryRaw`SELECT count(*) FROM lookup_close_shop_names('store', 10)`;
      const [{ word }] = await tx.$queryRaw<{ word: string }[]>`SELECT current_setting('pg_trgm.word_similarity_threshold') AS word`;
      expect(Number(word)).toBe(0.6);
    });
  });
});
