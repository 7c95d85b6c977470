import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lookupSource, termsOf } from '../../src/schema/lookup/sql.js';
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

type PlanNode = { 'Node Type': string; 'Relation Name'?: string; Plans?: PlanNode[] };
const nodes = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodes)];

describe('the fuzzy name matches of a lookup', () => {
  for (const type of ['advertiser', 'shop'] as const) {
    it(`read the ${type}s through the trigram index, never a sequential scan`, async () => {
      const statement = lookupSource(type, termsOf('nordic glo'), 20, workspaceId);
      const [{ 'QUERY PLAN': plan }] = await t.db.prisma.$queryRawUnsafe<{ 'QUERY PLAN': unknown }[]>(`EXPLAIN (FORMAT JSON) ${statement.text}`, ...statement.values);
      const [{ Plan: root }] = (typeof plan === 'string' ? JSON.parse(plan) : plan) as { Plan: PlanNode }[];
      const scans = nodes(root).filter((node) => node['Relation Name'] === 'advertisers' || node['Relation Name'] === 'shops');
      expect(scans.map((node) => node['Node Type'])).not.toContain('Seq Scan');
      expect(nodes(root).some((node) => node['Node Type'] === 'Bitmap Index Scan')).toBe(true);
    });
  }
});
