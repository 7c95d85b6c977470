import type pg from 'pg';
import type { Result, Scenario } from './types.js';

// Issue #37's target: "a brand diff over 30 days for the bench's largest brandtracker: p50 ≤ 1.5× the reach
// history's". BTc sends both, alternating in the same rounds: the reach history of S3's ad first (the ratio's base),
// then GET /v1/brandtrackers/{id}/changes of the tracked brand with the most ads, its default window (the last 30 days).
//
// The seeded market has ads but no events (the generator writes the market as it stands, not its history): the
// brand's events of the last 60 days are recorded here from its ads, in the proportions of the demo market's daily
// tick and of a sync (every start and stop of the 60 days, a copy change for one ad in 10, a landing-page change for
// one in 20, a reach jump for one in 7, a rank move for one in 15, a price change for one product of its shops in 5, a
// sell-out for one in 17), keyed `bench:…` so that a second run records nothing more. Half of them fall outside the
// window, as a brand's history would.

export const BRAND_CHANGES_SCENARIO = 'BTc';
const DAYS = 60;

/** Records the brand's events of the last 60 days once per bench database; returns how many its window (30 days) holds. */
export async function recordBrandEvents(pool: pg.Pool, brandtrackerId: string): Promise<{ recorded: number; inWindow: number }> {
  if (!brandtrackerId) return { recorded: 0, inWindow: 0 };
  const day = (salt: string) => `now() - ((abs(hashtext(x."id" || '${salt}')) % ${DAYS}) * interval '1 day') - interval '3 hours'`;
  const { rowCount } = await pool.query(
    `WITH page AS (SELECT "facebookPageId" AS id FROM "brandtrackers" WHERE "id" = $1::uuid),
     x AS (SELECT a.* FROM "ads" a, page WHERE a."advertiserId" = page.id),
     shops AS (SELECT "websiteId" AS id FROM "brandtrackers" WHERE "id" = $1::uuid AND "websiteId" IS NOT NULL
               UNION SELECT "shopId" FROM "brandtracker_websites" WHERE "brandtrackerId" = $1::uuid),
     p AS (SELECT pr."id", pr."shopId", pr."price", pr."currency" FROM "products" pr WHERE pr."shopId" IN (SELECT id FROM shops)),
     e AS (
       SELECT 'ad.created' AS type, x."firstSeenAt" + interval '10 hours' AS at, x."advertiserId", x."id" AS "adId", NULL::uuid AS "shopId", NULL AS "productId",
              jsonb_build_object('before', NULL, 'after', jsonb_build_object('platform', 'facebook', 'title', x."title", 'status', 'active')) AS data
       FROM x WHERE x."firstSeenAt" > now() - interval '${DAYS} days'
       UNION ALL
       SELECT 'ad.stopped', x."lastSeenAt" + interval '10 hours', x."advertiserId", x."id", NULL, NULL,
              jsonb_build_object('before', jsonb_build_object('status', 'active'), 'after', jsonb_build_object('status', 'inactive', 'lastSeenAt', x."lastSeenAt"))
       FROM x WHERE x."status" = 'inactive' AND x."lastSeenAt" > now() - interval '${DAYS} days'
       UNION ALL
       SELECT 'ad.copy_changed', ${day('c')}, x."advertiserId", x."id", NULL, NULL,
              jsonb_build_object('before', jsonb_build_object('title', x."title", 'body', 'An earlier opening line. ' || coalesce(x."body", '')), 'after', jsonb_build_object('title', x."title", 'body', x."body"))
       FROM x WHERE abs(hashtext(x."id")) % 10 = 0
       UNION ALL
       SELECT 'ad.landing_page_changed', ${day('l')}, x."advertiserId", x."id", NULL, NULL,
              jsonb_build_object('before', jsonb_build_object('landingPageDomain', 'old-' || coalesce(x."landingPageDomain", 'none.example')), 'after', jsonb_build_object('landingPageDomain', x."landingPageDomain"))
       FROM x WHERE abs(hashtext(x."id")) % 20 = 1
       UNION ALL
       SELECT 'ad.reach_jumped', ${day('r')}, x."advertiserId", x."id", NULL, NULL,
              jsonb_build_object('before', jsonb_build_object('reach', x."reach" / 3), 'after', jsonb_build_object('reach', x."reach", 'gain', x."reach" - x."reach" / 3))
       FROM x WHERE abs(hashtext(x."id")) % 7 = 2
       UNION ALL
       SELECT 'brandtracker.rank_changed', ${day('k')}, x."advertiserId", x."id", NULL, NULL,
              jsonb_build_object('brandtrackerId', $1::text, 'top', 10, 'before', jsonb_build_object('rank', 12), 'after', jsonb_build_object('rank', 3))
       FROM x WHERE abs(hashtext(x."id")) % 15 = 3
       UNION ALL
       SELECT 'product.price_changed', ${day('p')}, NULL, NULL, x."shopId", x."id",
              jsonb_build_object('before', jsonb_build_object('price', x."price" + 5, 'currency', x."currency"), 'after', jsonb_build_object('price', x."price", 'currency', x."currency"))
       FROM p x WHERE abs(hashtext(x."id")) % 5 = 0
       UNION ALL
       SELECT 'product.out_of_stock', ${day('s')}, NULL, NULL, x."shopId", x."id",
              jsonb_build_object('before', jsonb_build_object('available', true), 'after', jsonb_build_object('available', false))
       FROM p x WHERE abs(hashtext(x."id")) % 17 = 0)
     INSERT INTO "market_events" ("type", "source", "occurredAt", "dedupeKey", "advertiserId", "adId", "shopId", "productId", "data")
     SELECT e.type, 'demo', e.at, 'bench:' || e.type || ':' || coalesce(e."adId", e."productId"), e."advertiserId", e."adId", e."shopId", e."productId", e.data FROM e
     ON CONFLICT ("dedupeKey") DO NOTHING`,
    [brandtrackerId],
  );
  if (rowCount) await pool.query('ANALYZE "market_events"');
  const { rows } = await pool.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM "market_events" WHERE "dedupeKey" LIKE 'bench:%' AND "occurredAt" > now() - interval '30 days'`,
  );
  return { recorded: rowCount ?? 0, inWindow: rows[0].n };
}

export function brandChangeScenarios(brandtrackerId: string, historyAdId: string): Scenario[] {
  return [
    {
      id: BRAND_CHANGES_SCENARIO, compare: 'p50',
      title: 'brand diff: GET /v1/brandtrackers/{id}/changes (the last 30 days, every section, 10 items each) of the tracked brand with the most ads, against the reach history of S3 (target: p50 ≤ 1.5× its)',
      targets: [
        { name: 'reach history', server: 'rest', path: `/v1/ads/${historyAdId}/reach-history` },
        { name: 'REST', server: 'rest', path: `/v1/brandtrackers/${brandtrackerId}/changes` },
        // The same diff with `to` the request's instant: every request a new window, read anew (no kept answer).
        { name: 'REST read anew', server: 'rest', path: `/v1/brandtrackers/${brandtrackerId}/changes`, fresh: 'to' },
      ],
    },
  ];
}

/** The verdict of BTc: the diff's p50 over the reach history's, measured in the same rounds. */
export function brandChangeVerdicts(rows: (Result & { ratio: number })[]): string[] {
  return rows
    .filter((row) => row.scenario === BRAND_CHANGES_SCENARIO && row.target.startsWith('REST'))
    .map((row) => row.target === 'REST'
      ? `- ${BRAND_CHANGES_SCENARIO} at ${row.scale} (issue 37): brand diff p50 ${row.p50.toFixed(2)} ms, ${row.ratio.toFixed(2)}× the reach history's (target ≤ 1.5: ${row.ratio <= 1.5 ? 'met' : 'NOT met'})`
      : `- ${BRAND_CHANGES_SCENARIO} at ${row.scale}, ${row.target} (each request its own window, so no kept answer serves it): p50 ${row.p50.toFixed(2)} ms, ${row.ratio.toFixed(2)}× the reach history's`);
}
