import type pg from 'pg';
import type { Result, Scenario, Target } from './types.js';
import { cursorOfPage, prepareWorkspace } from './workspace.js';

// Scenarios S7–S17: the routes of issues 16 (discovery), 17 (shops, emails), 18 (products, image search), 19 (workspace
// analytics) and 21 (boards), each against the floor (floor-discovery.ts, floor-shops.ts, floor-market.ts,
// floor-workspace.ts) except the image search, which has none (its work is decoding and fingerprinting the image).
// They run on every scale, so S6 reports their growth too.

export const ISSUE_SCENARIO_IDS = ['S7', 'S8', 'S9', 'S10', 'S11', 'S12', 'S13', 'S14', 'S15', 'S16', 'S17'];
/** The scenarios that need the workspace's own data (brandtrackers, a board) or pages found through the server. */
const NEEDS_SETUP = new Set(['S13', 'S14', 'S15', 'S16', 'S17']);
const TRACKED_BRANDS = 50;
const BOARD_ITEMS = 40;
const PRODUCTS_QUERY = { currencies: ['USD'], sellingCountries: ['US'], minPrice: 20, minActiveAds: 1, sortBy: 'best-selling', limit: 25 };
const LATER_PAGE = 50;

/** Values of the seeded market the scenarios ask for, read once per scale. */
export type IssueFixtures = {
  fuzzyName: string; domain: string; categoryId: number; pixelId: string; appId: number; pageIds: string[]; boardAdIds: string[]; productImage: string; imageIndex: string;
};

export async function issueFixtures(pool: pg.Pool): Promise<IssueFixtures> {
  const one = async <T>(text: string): Promise<T> => (await pool.query(text)).rows[0] as T;
  const { name } = await one<{ name: string }>(`SELECT "name" FROM "advertisers" ORDER BY "liveAdsCount" DESC, "id" LIMIT 1`);
  // S8's domain: the most visited shop whose domain is a name and a top-level domain of at most 16 characters, as a
  // brand's domain is typed (truepetal.com at small, greenbarkclub.co at large). The most visited shop of all was
  // 13 characters at small and 31 at large (theateliersupplycollective34.co: the generator suffixes names as the
  // market grows), so S8's growth compared a short domain's trigram search with a long one's.
  const { domain } = await one<{ domain: string }>(
    `SELECT "domain" FROM "shops" WHERE "domain" ~ '^[a-z]+\\.[a-z]+$' AND length("domain") <= 16 ORDER BY "monthlyVisits" DESC, "id" LIMIT 1`,
  );
  const { categoryId } = await one<{ categoryId: number }>(`SELECT c AS "categoryId" FROM "shops", unnest("categoryIds") c GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1`);
  const { pixelId } = await one<{ pixelId: string }>(`SELECT "pixelId" FROM "shop_pixels" GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1`);
  const { appId } = await one<{ appId: number }>(`SELECT "appId" FROM "shop_apps" GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1`);
  // The brands a workspace would track first: loaded brandtrackers with the most live ads (as the demo workspace's).
  const pageIds = (await pool.query<{ id: string }>(`SELECT b."facebookPageId" AS id FROM "brandtrackers" b JOIN "advertisers" v ON v."id" = b."facebookPageId"
    WHERE b."isLoaded" ORDER BY v."liveAdsCount" DESC, b."id" LIMIT ${TRACKED_BRANDS}`)).rows.map((row) => row.id);
  const boardAdIds = (await pool.query<{ id: string }>(`SELECT "id" FROM "ads" WHERE "isGroupLead" ORDER BY "reach" DESC, "id" LIMIT ${BOARD_ITEMS}`)).rows.map((row) => row.id);
  const { productImage } = await one<{ productImage: string }>(`SELECT "imageUrl" AS "productImage" FROM "products" WHERE "imageUrl" LIKE '/media/%' ORDER BY "bestSellerPosition" NULLS LAST, "id" LIMIT 1`);
  // The plan of the image search's nearest-neighbour statement (search.ts) for a stored picture's features.
  const { features } = await one<{ features: string }>(`SELECT "features"::text AS features FROM "image_fingerprints" ORDER BY "id" LIMIT 1`);
  const plan = await pool.query<{ 'QUERY PLAN': string }>(`EXPLAIN SELECT f."id" FROM "image_fingerprints" f ORDER BY f."features" <-> $1::cube LIMIT 40`, [features]);
  const lines = plan.rows.map((row) => row['QUERY PLAN']);
  const imageIndex = lines.map((line) => /Index (?:Only )?Scan using (\S+)/.exec(line)?.[1]).find(Boolean) ?? `no index (${lines.find((line) => /Scan/.test(line))?.trim()})`;
  return { fuzzyName: name.toLowerCase().slice(0, -1), domain, categoryId, pixelId, appId, pageIds, boardAdIds, productImage, imageIndex };
}

/** What only the running server can give: the workspace's board, the cursor of page 50, the image's bytes. */
export type IssueSetup = { boardId: string; productCursor: string; imageBase64: string };

export async function prepareIssueData(baseUrl: string, apiKey: string, fixtures: IssueFixtures, wanted: (id: string) => boolean): Promise<IssueSetup | null> {
  if (![...NEEDS_SETUP].some(wanted)) return null;
  const { boardId } = await prepareWorkspace(baseUrl, apiKey, fixtures.pageIds, fixtures.boardAdIds);
  const productCursor = await cursorOfPage(baseUrl, apiKey, '/products/query', PRODUCTS_QUERY, LATER_PAGE);
  const image = await fetch(`${baseUrl}${fixtures.productImage}`);
  if (!image.ok) throw new Error(`bench setup: GET ${fixtures.productImage} answered ${image.status}`);
  return { boardId, productCursor, imageBase64: Buffer.from(await image.arrayBuffer()).toString('base64') };
}

const both = (path: string, method: 'GET' | 'POST' = 'GET', body?: unknown): Target[] => {
  const json = body === undefined ? undefined : JSON.stringify(body);
  return [{ name: 'floor', server: 'floor', method, path, body: json }, { name: 'REST', server: 'rest', method, path, body: json }];
};

export function issueScenarios(f: IssueFixtures | null, setup: IssueSetup | null): Scenario[] {
  const x = f ?? { fuzzyName: '', domain: '', categoryId: 0, pixelId: '', appId: 0, imageIndex: '' };
  const s = setup ?? { boardId: '', productCursor: '', imageBase64: '' };
  return [
    { id: 'S7', title: `GET /v1/lookup, a fuzzy brand name ("${x.fuzzyName}": the top advertiser's name, lower case, last letter dropped)`, compare: 'p50', goal: { issue: 16, p50: { atMost: 1.5 } }, targets: both(`/v1/lookup?q=${encodeURIComponent(x.fuzzyName)}`) },
    { id: 'S8', title: `GET /v1/lookup, an exact shop domain (${x.domain})`, compare: 'p50', goal: { issue: 16, p50: { atMost: 1.5 } }, targets: both(`/v1/lookup?q=${encodeURIComponent(x.domain)}`) },
    { id: 'S9', title: 'GET /v1/advertisers sorted by active ads, 20 rows (last ads, main landing pages)', goal: { issue: 16, rps: { atLeast: 0.6 } }, targets: both('/v1/advertisers?sortBy=activeAds&limit=20') },
    {
      id: 'S10', title: 'GET /v1/shops with a category, a pixel and a Shopify app (the most used of each), sorted by monthly visits, 25 shop summaries', goal: { issue: 17, rps: { atLeast: 0.6 } },
      targets: both(`/v1/shops?categoryIds=${x.categoryId}&pixelIds=${x.pixelId}&shopifyAppIds=${x.appId}&sortBy=monthlyVisits&limit=25`),
    },
    { id: 'S11', title: 'POST /v1/emails/query, text search "free shipping" by relevance, 25 rows', goal: { issue: 17, rps: { atLeast: 0.6 } }, targets: both('/v1/emails/query', 'POST', { search: ['free shipping'], limit: 25 }) },
    { id: 'S12', title: 'POST /v1/products/query, four filters (USD, sells in US, price ≥ $20, an active ad), best-selling, page 1 of 25', goal: { issue: 18, rps: { atLeast: 0.6 } }, targets: both('/v1/products/query', 'POST', PRODUCTS_QUERY) },
    {
      id: 'S13', title: `the same query, page ${LATER_PAGE} by cursor (target: p50 ≤ 1.2× S12's)`, goal: { issue: 18, rps: { atLeast: 0.6 } },
      targets: both('/v1/products/query', 'POST', { ...PRODUCTS_QUERY, cursor: s.productCursor }),
    },
    {
      id: 'S14', title: 'POST /v1/products/image-search with a stored product image (JSON, base64), 20 rows; no floor', compare: 'p50',
      note: `image search: nearest pictures from ${x.imageIndex} (EXPLAIN of search.ts's ORDER BY features <-> … LIMIT 40); target p50 ≤ 100 ms at medium`,
      targets: [{ name: 'REST', server: 'rest', method: 'POST', path: '/v1/products/image-search', body: JSON.stringify({ image: s.imageBase64, limit: 20 }) }],
    },
    { id: 'S15', title: `GET /v1/workspace/top-ads, ${TRACKED_BRANDS} tracked brands, 20 rows`, goal: { issue: 19, rps: { atLeast: 0.5 } }, targets: both('/v1/workspace/top-ads') },
    { id: 'S16', title: `GET /v1/workspace/hooks, ${TRACKED_BRANDS} tracked brands, 20 rows`, goal: { issue: 19, rps: { atLeast: 0.5 } }, targets: both('/v1/workspace/hooks') },
    { id: 'S17', title: `GET /v1/boards/{boardId}/items, a board of ${BOARD_ITEMS} ads, page 1 of 25`, targets: both(`/v1/boards/${s.boardId}/items`) },
  ];
}

/** The issues' targets against the measured rows: one line per scenario and scale. */
export function issueVerdicts(rows: (Result & { ratio: number })[], scenarios: Map<string, Scenario>): string[] {
  const lines: string[] = [];
  const fmt = (value: number) => value.toFixed(2);
  for (const row of rows.filter((r) => r.target === 'REST')) {
    const goal = scenarios.get(row.scenario)?.goal;
    if (goal?.rps) lines.push(`- ${row.scenario} at ${row.scale} (issue ${goal.issue}): REST ${fmt(row.ratio)}× the floor's req/s (target ≥ ${goal.rps.atLeast}: ${row.ratio >= goal.rps.atLeast ? 'met' : 'NOT met'})`);
    if (goal?.p50) lines.push(`- ${row.scenario} at ${row.scale} (issue ${goal.issue}): REST p50 ${fmt(row.ratio)}× the floor's (target ≤ ${goal.p50.atMost}: ${row.ratio <= goal.p50.atMost ? 'met' : 'NOT met'})`);
    if (row.scenario === 'S13') {
      const first = rows.find((r) => r.scale === row.scale && r.scenario === 'S12' && r.target === 'REST');
      if (first) lines.push(`- S13 at ${row.scale} (issue 18): page ${LATER_PAGE} p50 ${fmt(row.p50 / first.p50)}× page 1's (target ≤ 1.2: ${row.p50 <= 1.2 * first.p50 ? 'met' : 'NOT met'})`);
    }
    if (row.scenario === 'S14') lines.push(`- S14 at ${row.scale} (issue 18): image search p50 ${fmt(row.p50)} ms (target ≤ 100 ms at medium: ${row.p50 <= 100 ? 'met' : 'NOT met'})`);
  }
  return lines;
}
