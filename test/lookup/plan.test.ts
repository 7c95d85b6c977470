import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Prisma } from '../../src/generated/prisma/client.js';
import { fuzzyNameHits, lookupSource, termsOf } from '../../src/schema/lookup/service/sources.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { discoveryScenario } from '../support/discovery-scenario.js';

// The fuzzy name matches of GET /v1/lookup are answered by the trigram indexes, not by a scan of every advertiser
// or shop computing a similarity per row: priced by pg_trgm as cheap as an equality, a trigram match over
// thousands of names was planned as the whole-table scan (30 ms at the bench's small scale, growing with the
// market); migration 0019 gives the operators their real price. Since migration 0020 the match (word similarity
// >= 0.5) runs in a function with its own threshold: its body is planned here on its own.

let t: TestApp;
let workspaceId: string;

beforeAll(async () => {
  t = await createTestApp(discoveryScenario);
  ({ workspaceId } = await t.newKey());
  // 6,000 more advertisers and shops with names made of other words, as many as the bench's small market has advertisers.
  await t.db.prisma.$executeRaw`INSERT INTO "advertisers" ("id", "name", "totalReach")
    SELECT (9000000000000 + n)::text, 'Brand ' || md5(n::text), (n * 7919) % 5000 FROM generate_series(1, 6000) n`;
  await t.db.prisma.$executeRaw`INSERT INTO "shops" ("id", "domain", "name", "monthlyVisits")
    SELECT gen_random_uuid(), 'shop' || n || '.example', 'Store ' || md5(n::text), (n * 7919) % 5000 FROM generate_series(1, 6000) n`;
  await t.db.prisma.$executeRaw`ANALYZE "advertisers"`;
  await t.db.prisma.$executeRaw`ANALYZE "shops"`;
});
afterAll(() => t?.close());

type PlanNode = { 'Node Type': string; 'Relation Name'?: string; 'Index Name'?: string; 'Function Name'?: string; Plans?: PlanNode[] };
const nodes = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodes)];

describe('the fuzzy name matches of a lookup', () => {
  for (const type of ['advertiser', 'shop'] as const) {
    it(`read the ${type}s through the trigram index, never a sequential scan`, async () => {
      const explain = async (text: string, ...values: unknown[]) => {
        const [{ 'QUERY PLAN': plan }] = await t.db.prisma.$queryRawUnsafe<{ 'QUERY PLAN': unknown }[]>(`EXPLAIN (FORMAT JSON) ${text}`, ...values);
        return nodes(((typeof plan === 'string' ? JSON.parse(plan) : plan) as { Plan: PlanNode }[])[0].Plan);
      };
      const searched = (node: PlanNode) => node['Relation Name'] === 'advertisers' || node['Relation Name'] === 'shops';
      // The statement: the matching part (below the DISTINCT ON that keeps one hit per record) calls the function;
      // how the few matches are then joined to their details is the planner's choice by table size.
      const statement = lookupSource(type, termsOf('nordic glo'), 10, workspaceId);
      const matching = nodes((await explain(statement.text, ...statement.values)).find((node) => node['Node Type'] === 'Unique')!);
      expect(matching.filter(searched).map((node) => node['Node Type'])).not.toContain('Seq Scan');
      expect(matching.map((node) => node['Function Name'])).toContain(`lookup_fuzzy_${type}_names`);
      // The function's body, planned as it runs.
      const [{ body }] = await t.db.prisma.$queryRaw<{ body: string }[]>`SELECT prosrc AS body FROM pg_proc WHERE proname = ${`lookup_fuzzy_${type}_names`}`;
      const inside = await explain(body, 'nordic glo', 10, 2000);
      expect(inside.filter(searched).map((node) => node['Node Type'])).not.toContain('Seq Scan');
      expect(inside.some((node) => node['Node Type'] === 'Bitmap Index Scan' && node['Index Name'] === `${type}s_name_trgm_idx`)).toBe(true);
    });
  }
});

describe('a fuzzy name match', () => {
  // Each table with the size that breaks a tie of scores: the larger brand first, as the lookup orders its results.
  const TABLES = {
    advertiser: Prisma.sql`(SELECT "id", "name", "totalReach" AS size FROM "advertisers") v`,
    shop: Prisma.sql`(SELECT "id"::text AS "id", "name", "monthlyVisits"::bigint AS size FROM "shops") v`,
  };

  for (const source of ['advertiser', 'shop'] as const) {
    it(`is a ${source} name with word similarity >= 0.5, best first, then the larger brand, then by id`, async () => {
      for (const q of ['nordic glo', 'nordic glow', source === 'advertiser' ? 'brand 1a' : 'store 1a', 'brand', 'store', 'glo', 'qqqq zzzz']) {
        for (const limit of [1, 3, 10]) {
          const expected = await t.db.prisma.$queryRaw<{ key: string; score: number }[]>`
            SELECT v."id" AS key, 0.99 * word_similarity(${q}, v."name") AS score FROM ${TABLES[source]}
            WHERE word_similarity(${q}, v."name") >= 0.5 ORDER BY 2 DESC, v.size DESC, 1 LIMIT ${limit}`;
          const found = await t.db.prisma.$queryRaw<{ key: string; score: number }[]>`SELECT key, score FROM (${fuzzyNameHits(source, { name: q, host: null }, limit)}) h`;
          expect(found, `${q} (limit ${limit})`).toEqual(expected);
          // The walk of the largest brands (migration 0023) answers only when it finds them all, whatever its length.
          for (const walk of [1, 5, 50, 400]) {
            const walked = await t.db.prisma.$queryRawUnsafe<{ key: string; score: number }[]>(`SELECT id AS key, score FROM lookup_fuzzy_${source}_names($1, $2, $3)`, q, limit, walk);
            expect(walked, `${q} (limit ${limit}, walk ${walk})`).toEqual(expected);
          }
        }
      }
    });
  }

  for (const source of ['advertiser', 'shop'] as const) {
    it(`of a word held by many ${source} names is answered by the walk of the largest, the trigram path left unrun`, async () => {
      const [{ body }] = await t.db.prisma.$queryRaw<{ body: string }[]>`SELECT prosrc AS body FROM pg_proc WHERE proname = ${`lookup_fuzzy_${source}_names`}`;
      const word = source === 'advertiser' ? 'brand' : 'store';
      type Analyzed = PlanNode & { 'Actual Rows': number; 'Actual Loops': number; 'Rows Removed by Filter'?: number; 'Rows Removed by Index Recheck'?: number };
      /** Rows the function's body reads from the searched table (kept and filtered out). */
      const rowsRead = async (walk: number) => {
        const [{ 'QUERY PLAN': plan }] = await t.db.prisma.$queryRawUnsafe<{ 'QUERY PLAN': unknown }[]>(`EXPLAIN (ANALYZE, FORMAT JSON) ${body}`, word, 10, walk);
        const all = nodes(((typeof plan === 'string' ? JSON.parse(plan) : plan) as { Plan: PlanNode }[])[0].Plan) as Analyzed[];
        return all
          .filter((node) => node['Relation Name'] === `${source}s` && !node['Node Type'].startsWith('Bitmap Index'))
          .reduce((sum, node) => sum + node['Actual Rows'] * node['Actual Loops'] + (node['Rows Removed by Filter'] ?? 0) + (node['Rows Removed by Index Recheck'] ?? 0), 0);
      };
      // 6,000 names hold the word: the largest ten are among the first 400 read.
      expect(await rowsRead(400)).toBeLessThanOrEqual(400);
      // A walk too short to find ten: the trigram path answers, reading the names that hold the word.
      expect(await rowsRead(5)).toBeGreaterThan(1000);
    });
  }

  it('of a domain skips the walk of the largest and finds what the walk would', async () => {
    const [{ domain }] = await t.db.prisma.$queryRaw<{ domain: string }[]>`SELECT "domain" FROM "shops" ORDER BY "monthlyVisits" DESC, "id" LIMIT 1`;
    const terms = termsOf(domain);
    expect(terms.host).toBe(domain);
    for (const source of ['advertiser', 'shop'] as const) {
      const hits = fuzzyNameHits(source, terms, 10);
      expect(hits.text).toMatch(new RegExp(`lookup_fuzzy_${source}_names\\(\\$\\d+, \\$\\d+, 0\\)`));
      const found = await t.db.prisma.$queryRaw<{ key: string; score: number }[]>`SELECT key, score FROM (${hits}) h`;
      const walked = await t.db.prisma.$queryRawUnsafe<{ key: string; score: number }[]>(`SELECT id AS key, score FROM lookup_fuzzy_${source}_names($1, $2)`, domain, 10);
      expect(found, source).toEqual(walked);
    }
    // A name is walked as before.
    expect(fuzzyNameHits('shop', termsOf('nordic glo'), 10).text).toMatch(/lookup_fuzzy_shop_names\(\$\d+, \$\d+\)/);
  });

  it("leaves the session's trigram thresholds as they were", async () => {
    await t.db.prisma.$transaction(async (tx) => {
      await tx.$queryRaw`SELECT count(*) FROM lookup_fuzzy_shop_names('store', 10)`;
      const [{ word }] = await tx.$queryRaw<{ word: string }[]>`SELECT current_setting('pg_trgm.word_similarity_threshold') AS word`;
      expect(Number(word)).toBe(0.6);
    });
  });
});
