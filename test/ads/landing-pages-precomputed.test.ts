import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setCredits } from '../../src/auth/admin.js';
import { Prisma } from '../../src/generated/prisma/client.js';
import { syncSource } from '../../src/sources/index.js';
import { onDomain } from '../../src/schema/shared/domains.js';
import { hostOf } from '../../src/schema/shared/codes.js';
import { metaAd, startFakeMeta } from '../sources/fakes/meta.js';
import { FAST, fakeServers, runFigures, sourceEnv } from '../sources/helpers.js';
import { createTestApp, type TestApp } from '../support/app.js';
import type { TestDatabase } from '../support/database.js';

// GET /v1/ads/facets/landing-pages sums the ads counted per page, domain and landing page (migration 0040). Its answers
// against the statement it ran before, over every matching ad, on the demo market: domains (with subdomains, a
// look-alike, suffixes that span many shops), pages, the three statuses and limits; then after a Meta import stops an
// ad, points one at a subdomain and moves one to another page.

type Status = 'all' | 'active' | 'inactive';
type Scope = { host: string } | { advertiserIds: string[] };

/** The route's statement before migration 0040: every matching ad, grouped by its normalised URL. */
function landingPagesOnTheFly(db: TestDatabase, scope: Scope, status: Status, limit: number) {
  const NORMALISED_URL = Prisma.raw(`rtrim(lower(split_part(split_part(a."landingPageUrl", '#', 1), '?', 1)), '/')`);
  const where = 'host' in scope
    ? onDomain(Prisma.sql`a."landingPageDomain"`, scope.host)
    : Prisma.sql`a."advertiserId" = ANY(${scope.advertiserIds}::text[])`;
  const statusFilter = status === 'all' ? Prisma.empty : Prisma.sql`AND a."status" = ${status}::"AdStatus"`;
  return db.prisma.$queryRaw<{ url: string; usageCount: number; activeAdsCount: number }[]>`
        SELECT ${NORMALISED_URL} AS url, count(*)::int AS "usageCount", (count(*) FILTER (WHERE a."status" = 'active'))::int AS "activeAdsCount"
        FROM "ads" a
        WHERE a."landingPageUrl" IS NOT NULL AND ${where} ${statusFilter}
        GROUP BY 1
        ORDER BY "usageCount" DESC, url ASC
        LIMIT ${limit + 1}`;
}

const STATUSES: Status[] = ['all', 'active', 'inactive'];
const LIMITS = [1, 5, 100];

let t: TestApp;
let key: string;
/** The demo domain the scenario adds subdomains, a look-alike and URL spellings to. */
let domain: string;

/** On the demo market: ads of one domain's page moved to its subdomains and a look-alike, URLs spelt apart, an ad with no domain. */
async function scenario(db: TestDatabase) {
  const [top] = await db.prisma.$queryRaw<{ domain: string }[]>`
    SELECT "landingPageDomain" AS domain FROM "ads" WHERE "landingPageDomain" IS NOT NULL AND "landingPageUrl" IS NOT NULL GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1`;
  domain = top.domain;
  const ads = await db.prisma.$queryRaw<{ id: string }[]>`SELECT "id" FROM "ads" WHERE "landingPageDomain" = ${domain} AND "landingPageUrl" IS NOT NULL ORDER BY "id" LIMIT 5`;
  const moves: { host: string | null; url: string; status: 'active' | 'inactive' | 'unknown' }[] = [
    { host: `eu.${domain}`, url: `HTTPS://EU.${domain.toUpperCase()}/Products/Moved/?utm_source=meta`, status: 'active' },
    { host: `eu.${domain}`, url: `https://eu.${domain}/products/moved#reviews`, status: 'inactive' },
    { host: `shop.eu.${domain}`, url: `https://eu.${domain}/products/moved//`, status: 'unknown' },
    { host: `my${domain}`, url: `https://my${domain}/products/moved`, status: 'active' },
    { host: null, url: `https://${domain}/products/without-domain`, status: 'active' },
  ];
  for (const [k, { host, url, status }] of moves.entries()) {
    await db.prisma.$executeRaw`UPDATE "ads" SET "landingPageDomain" = ${host}, "landingPageUrl" = ${url}, "status" = ${status}::"AdStatus" WHERE "id" = ${ads[k].id}`;
  }
}

beforeAll(async () => {
  t = await createTestApp(scenario, { market: { scale: 'tiny', seed: 42 } }); // the demo's market: a copy of the run's template
  const { apiKey, slug } = await t.newKey();
  await setCredits(t.db.prisma, { workspace: slug, recurringLimit: 1_000_000 }); // one credit per landing page returned
  key = apiKey;
});
afterAll(() => t?.close());

const env = sourceEnv();
const fakes = fakeServers();

/** The route's answer for `scope`, and what the statement over every ad answers (its rows up to `limit`, and whether there were more). */
async function answers(scope: Scope, status: Status, limit: number) {
  const query = 'host' in scope ? `scopeDomain=${encodeURIComponent(scope.host)}` : `scopeTrackedPages=${scope.advertiserIds.join(',')}`;
  const res = await t.rest('GET', `/ads/facets/landing-pages?${query}&status=${status}&limit=${limit}`, { key });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const scoped: Scope = 'host' in scope ? { host: hostOf(scope.host) } : scope;
  const rows = await landingPagesOnTheFly(t.db, scoped, status, limit);
  return {
    route: JSON.stringify({ data: res.body.data, isTruncated: res.body.meta.isTruncated }),
    onTheFly: JSON.stringify({ data: rows.slice(0, limit), isTruncated: rows.length > limit }),
    rows: res.body.data as { url: string; usageCount: number; activeAdsCount: number }[],
  };
}

/** Every scope × status × limit: the route's answer is the statement's, byte for byte; the rows compared. */
async function expectSameAnswers(scopes: Scope[]): Promise<number> {
  let rows = 0;
  for (const scope of scopes) {
    for (const status of STATUSES) {
      for (const limit of LIMITS) {
        const { route, onTheFly } = await answers(scope, status, limit);
        expect([scope, status, limit, route]).toEqual([scope, status, limit, onTheFly]);
        rows += (JSON.parse(route) as { data: unknown[] }).data.length;
      }
    }
  }
  return rows;
}

const pagesOf = async (where: Prisma.Sql, n: number) =>
  (await t.db.prisma.$queryRaw<{ id: string }[]>`SELECT a."advertiserId" AS id FROM "ads" a WHERE ${where} GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT ${n}`).map((row) => row.id);

describe('the landing pages of a domain or of pages, from the per-page counts', () => {
  it('answer what counting every ad of the scope answers, for domains and their subdomains', async () => {
    const domains = (await t.db.prisma.$queryRaw<{ domain: string }[]>`
      SELECT "landingPageDomain" AS domain FROM "ads" WHERE "landingPageDomain" IS NOT NULL GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 4`).map((row) => row.domain);
    const scopes = [
      ...domains, `eu.${domain}`, `shop.eu.${domain}`, `my${domain}`, `https://www.${domain}/some/path?x=1`,
      // Suffixes: every shop under them, across many pages (sums over pages, truncated answers).
      'com', 'shop', '%.com', 'nowhere.example',
    ].map((host) => ({ host }));
    expect(await expectSameAnswers(scopes)).toBeGreaterThan(300);
    // The scenario's subdomain ads count under the domain, in one landing page whatever the URL's spelling.
    const { rows } = await answers({ host: domain }, 'all', 100);
    expect(rows.find((row) => row.url === `https://eu.${domain}/products/moved`)?.usageCount).toBe(3);
    expect(rows.some((row) => row.url.includes(`my${domain}`) || row.url.endsWith('/without-domain'))).toBe(false);
  });

  it('answer what counting every ad of the scope answers, for pages', async () => {
    const largest = await pagesOf(Prisma.sql`a."landingPageUrl" IS NOT NULL`, 20);
    const withoutDomain = await pagesOf(Prisma.sql`a."landingPageDomain" IS NULL AND a."landingPageUrl" IS NOT NULL`, 1);
    const unknown = await pagesOf(Prisma.sql`a."status" = 'unknown' AND a."landingPageUrl" IS NOT NULL`, 3);
    expect(withoutDomain).toHaveLength(1);
    expect(unknown).toHaveLength(3);
    const scopes = [[largest[0]], largest.slice(0, 3), largest, withoutDomain, unknown, [largest[1], largest[1]], ['999999999999999']];
    expect(await expectSameAnswers(scopes.map((advertiserIds) => ({ advertiserIds })))).toBeGreaterThan(300);
    const { rows } = await answers({ advertiserIds: withoutDomain }, 'all', 100);
    expect(rows.map((row) => row.url)).toContain(`https://${domain}/products/without-domain`);
  });
});

describe('after a Meta import', () => {
  it('follows the ads it stops, points elsewhere and moves to another page', async () => {
    // Three active ads of one page with landing pages, and another page.
    const [page, other] = await pagesOf(Prisma.sql`a."status" = 'active' AND a."landingPageUrl" IS NOT NULL AND a."landingPageDomain" IS NOT NULL`, 2);
    const ads = await t.db.prisma.$queryRaw<{ id: string; domain: string }[]>`
      SELECT "id", "landingPageDomain" AS domain FROM "ads" WHERE "advertiserId" = ${page} AND "status" = 'active' AND "landingPageUrl" IS NOT NULL AND "landingPageDomain" IS NOT NULL
      ORDER BY "id" LIMIT 3`;
    expect(ads).toHaveLength(3);
    const names = new Map((await t.db.prisma.advertiser.findMany({ where: { id: { in: [page, other] } }, select: { id: true, name: true } })).map((v) => [v.id, v.name]));
    const [stopped, pointed, moved] = ads;
    const scopes: Scope[] = [
      ...[...new Set(ads.map((ad) => ad.domain))].flatMap((host) => [{ host }, { host: `eu.${host}` }]),
      { advertiserIds: [page] }, { advertiserIds: [other] }, { advertiserIds: [page, other] },
    ];
    const before = await Promise.all(scopes.map(async (scope) => (await answers(scope, 'all', 100)).route));

    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const record = (ad: { id: string }, pageId: string, overrides: Record<string, unknown>) =>
      metaAd(0, { id: ad.id.replace(/^facebook_/, ''), page_id: pageId, page_name: names.get(pageId), ad_delivery_stop_time: undefined, ...overrides });
    const meta = await fakes.track(startFakeMeta({
      token: 'EAAlandingPagesToken',
      ads: [
        record(stopped, page, { ad_creative_link_captions: [stopped.domain], ad_delivery_stop_time: yesterday }),
        record(pointed, page, { ad_creative_link_captions: [`eu.${pointed.domain}`] }),
        record(moved, other, { ad_creative_link_captions: [] }),
      ],
    }));
    env({ META_GRAPH_URL: meta.url, META_ACCESS_TOKEN: 'EAAlandingPagesToken' });
    const run = await syncSource(t.db.pool, 'meta-ads', { countries: ['FR'], pageIds: [page, other] }, { http: FAST });
    expect(runFigures(run)).toMatchObject({ status: 'succeeded', fetched: 3, updated: 3 });
    const stored = await t.db.prisma.ad.findMany({ where: { id: { in: ads.map((ad) => ad.id) } }, select: { id: true, status: true, landingPageDomain: true, advertiserId: true } });
    expect(stored.sort((a, b) => ads.findIndex((ad) => ad.id === a.id) - ads.findIndex((ad) => ad.id === b.id))).toEqual([
      { id: stopped.id, status: 'inactive', landingPageDomain: stopped.domain, advertiserId: page },
      { id: pointed.id, status: 'active', landingPageDomain: `eu.${pointed.domain}`, advertiserId: page },
      { id: moved.id, status: 'active', landingPageDomain: null, advertiserId: other },
    ]);

    await expectSameAnswers(scopes);
    const after = await Promise.all(scopes.map(async (scope) => (await answers(scope, 'all', 100)).route));
    // Each scope's answer moved: the pages' ads changed, the ads left their domain (the subdomain's gained one).
    expect(after.filter((answer, i) => answer !== before[i]).length).toBeGreaterThanOrEqual(4);
  });
});
