import { AUTH, AUTH_COLUMNS, authedBody, ISO, Params, type Route, type Row } from './floor-common.js';

// The floor of S7–S9 (issue 16): GET /v1/lookup (the three sources in one statement) and GET /v1/advertisers sorted
// by active ads. Same JSON as the project, one statement per request.

function termsOf(q: string) {
  const name = q.trim();
  const host = name.toLowerCase().replace(/^[a-z]+:\/\//, '').replace(/^www\./, '').split(/[/?#]/)[0];
  const instagramPath = /^(?:https?:\/\/)?(?:www\.)?instagram\.com\/([A-Za-z0-9._]{1,30})\/?$/i.exec(name);
  const handle = instagramPath?.[1] ?? (/^@?[A-Za-z0-9._]{1,30}$/.test(name) ? name.replace(/^@/, '') : null);
  const isHost = /^[a-z0-9-]+(\.[a-z0-9-]+)*\.[a-z]{2,}$/.test(host);
  return { name, pageId: /^\d{1,40}$/.test(name) ? name : null, host: isHost && !instagramPath ? host : null, handle: handle?.toLowerCase() ?? null };
}

const TRACKED = `"brandtrackers" t JOIN "brandtracker_links" k ON k."brandtrackerId" = t."id" AND k."workspaceId" = (SELECT "workspaceId" FROM auth) AND k."isActive"`;
const hit = (key: string, field: string, exact: boolean, score = '1') => `${key} AS key, '${field}'::text AS field, (${score})::float8 AS score, ${exact} AS exact`;
const similar = (column: string, q: string) => `0.99 * greatest(similarity(${column}, ${q}), word_similarity(${q}, ${column}))`;
const PRIMARY_SHOP = (page: string) => `(SELECT l."shopId" FROM "advertiser_shops" l JOIN "shops" s ON s."id" = l."shopId" WHERE l."advertiserId" = ${page} ORDER BY l."isPrimary" DESC, s."monthlyVisits" DESC, s."id" LIMIT 1)`;
const MAIN_PAGE = (shop: string) => `(SELECT l."advertiserId" FROM "advertiser_shops" l WHERE l."shopId" = ${shop} ORDER BY l."isMain" DESC, l."rank" ASC NULLS LAST, l."advertiserId" LIMIT 1)`;
const TRACKER = (condition: string) => `(SELECT t."id" FROM ${TRACKED} WHERE ${condition} ORDER BY t."id" LIMIT 1)`;

/** One source's CTEs (`<type>_rows`: its best `limit` matches with the linked records, numbered in their order). */
function source(type: 'brandtracker' | 'advertiser' | 'shop', terms: ReturnType<typeof termsOf>, p: Params, limit: string): string {
  const q = p.add(terms.name);
  const hits: string[] = [];
  if (type === 'advertiser') {
    if (terms.pageId) hits.push(`SELECT ${hit('v."id"', 'facebookPageId', true)} FROM "advertisers" v WHERE v."id" = ${p.add(terms.pageId)}`);
    if (terms.handle) hits.push(`SELECT ${hit('v."id"', 'instagramHandle', true)} FROM "advertisers" v WHERE lower(v."instagramUsername") = ${p.add(terms.handle)}`);
    if (terms.host) hits.push(`SELECT ${hit('l."advertiserId"', 'domain', true)} FROM "shops" s JOIN "advertiser_shops" l ON l."shopId" = s."id" WHERE s."domain" = ${p.add(terms.host)}`);
    hits.push(`SELECT ${hit('v."id"', 'name', true)} FROM "advertisers" v WHERE lower(v."name") = lower(${q})`);
    hits.push(`SELECT ${hit('f."id"', 'name', false, 'f."score"')} FROM lookup_fuzzy_advertiser_names(${q}::text, (${limit})::int) f`);
  } else if (type === 'shop') {
    if (terms.host) hits.push(`SELECT ${hit('s."id"::text', 'domain', true)} FROM "shops" s WHERE s."domain" = ${p.add(terms.host)}`);
    if (terms.pageId) hits.push(`SELECT ${hit('l."shopId"::text', 'facebookPageId', true)} FROM "advertiser_shops" l WHERE l."advertiserId" = ${p.add(terms.pageId)}`);
    if (terms.handle) hits.push(`SELECT ${hit('s."id"::text', 'instagramHandle', true)} FROM "shops" s WHERE lower(s."instagramHandle") = ${p.add(terms.handle)}`);
    hits.push(`SELECT ${hit('s."id"::text', 'name', true)} FROM "shops" s WHERE lower(s."name") = lower(${q})`);
    hits.push(`SELECT ${hit('f."id"', 'name', false, 'f."score"')} FROM lookup_fuzzy_shop_names(${q}::text, (${limit})::int) f`);
  } else {
    if (terms.pageId) hits.push(`SELECT ${hit('t."id"::text', 'facebookPageId', true)} FROM ${TRACKED} WHERE t."facebookPageId" = ${p.add(terms.pageId)}`);
    if (terms.host) {
      hits.push(`SELECT ${hit('t."id"::text', 'domain', true)} FROM ${TRACKED} JOIN "shops" s ON s."domain" = ${p.add(terms.host)}
        WHERE s."id" = t."websiteId" OR EXISTS (SELECT 1 FROM "brandtracker_websites" w WHERE w."brandtrackerId" = t."id" AND w."shopId" = s."id")
          OR EXISTS (SELECT 1 FROM "advertiser_shops" l WHERE l."advertiserId" = t."facebookPageId" AND l."shopId" = s."id")`);
    }
    if (terms.handle) hits.push(`SELECT ${hit('t."id"::text', 'instagramHandle', true)} FROM ${TRACKED} JOIN "advertisers" v ON v."id" = t."facebookPageId" WHERE lower(v."instagramUsername") = ${p.add(terms.handle)}`);
    hits.push(`SELECT ${hit('t."id"::text', 'name', true)} FROM ${TRACKED} WHERE lower(k."name") = lower(${q}) OR lower(t."name") = lower(${q})`);
    const score = `greatest(coalesce(${similar('k."name"', q)}, 0), coalesce(${similar('t."name"', q)}, 0))`;
    hits.push(`(SELECT ${hit('t."id"::text', 'name', false, score)} FROM ${TRACKED} WHERE word_similarity(${q}, k."name") >= 0.5 OR word_similarity(${q}, t."name") >= 0.5 ORDER BY 3 DESC, 1 LIMIT ${limit})`);
  }
  const linked = type === 'advertiser'
    ? `m.key AS "advertiserId", ${PRIMARY_SHOP('m.key')} AS "shopId", ${TRACKER('t."facebookPageId" = m.key')} AS "brandtrackerId" FROM ${type}_matched m`
    : type === 'shop'
      ? `${MAIN_PAGE('m.key::uuid')} AS "advertiserId", m.key::uuid AS "shopId", ${TRACKER(`t."websiteId" = m.key::uuid OR t."facebookPageId" = ${MAIN_PAGE('m.key::uuid')}`)} AS "brandtrackerId" FROM ${type}_matched m`
      : `b."facebookPageId" AS "advertiserId", coalesce(b."websiteId", ${PRIMARY_SHOP('b."facebookPageId"')}) AS "shopId", b."id" AS "brandtrackerId" FROM ${type}_matched m JOIN "brandtrackers" b ON b."id"::text = m.key`;
  return `${type}_hits AS (${hits.join(' UNION ALL ')}),
    ${type}_matched AS (SELECT DISTINCT ON (key) key, field, score, exact FROM ${type}_hits ORDER BY key, exact DESC, score DESC),
    ${type}_linked AS (SELECT m.key, m.field, m.score, m.exact, ${linked}),
    ${type}_rows AS (
      SELECT '${type}' AS type, r.exact, r.field, r.score, v."id" AS "advertiserId", v."name" AS "advertiserName", v."liveAdsCount", v."reach30d", v."totalReach",
        s."id"::text AS "shopId", s."domain" AS "shopDomain", s."name" AS "shopName", s."monthlyVisits",
        t."id"::text AS "brandtrackerId", coalesce(k."name", t."name") AS "brandtrackerName", t."facebookPageId" AS "brandtrackerPageId", ${ISO('k."addedAt"')} AS "addedAt",
        row_number() OVER (ORDER BY r.exact DESC, r.score DESC, coalesce(v."totalReach", 0) DESC, coalesce(s."monthlyVisits", 0) DESC, r.key) AS n
      FROM ${type}_linked r LEFT JOIN "advertisers" v ON v."id" = r."advertiserId" LEFT JOIN "shops" s ON s."id" = r."shopId"
      LEFT JOIN (${TRACKED}) ON t."id" = r."brandtrackerId"
      ORDER BY n LIMIT ${limit})`;
}

const TYPES = ['brandtracker', 'advertiser', 'shop'] as const;

function lookupResult(row: Row): Row {
  return {
    type: row.type, matchType: row.exact ? 'exact' : 'fuzzy', matchField: row.field, score: Math.round(Number(row.score) * 1000) / 1000,
    brandtracker: row.brandtrackerId ? { id: row.brandtrackerId, name: row.brandtrackerName, facebookPageId: row.brandtrackerPageId } : null,
    advertiser: row.advertiserId ? { id: row.advertiserId, name: row.advertiserName, facebookPageId: row.advertiserId } : null,
    shop: row.shopId ? { id: row.shopId, domain: row.shopDomain, name: row.shopName } : null,
    signals: {
      activeAds: row.liveAdsCount, liveAdsCount: row.liveAdsCount, reach30d: row.reach30d, totalReach: row.totalReach, monthlyVisits: row.monthlyVisits,
      workspaceAddedAt: row.addedAt, hasBrandtracker: row.brandtrackerId !== null, hasAdvertiser: row.advertiserId !== null, hasShop: row.shopId !== null,
    },
  };
}

export const discoveryRoutes: Route[] = [
  [/^\/v1\/lookup$/, async (_m, url, key) => {
    const terms = termsOf(url.searchParams.get('q') ?? '');
    const limit = Number(url.searchParams.get('limit') ?? 10);
    const p = new Params();
    const l = p.add(limit);
    const ctes = TYPES.map((type) => source(type, terms, p, l)).join(',\n');
    // Every source's rows in source order, then exact first, by score (as rounded in the answer), the source's rank.
    const body = await authedBody(key, `WITH ${AUTH}, ${ctes}
      SELECT ${AUTH_COLUMNS}, (SELECT coalesce(json_agg(to_jsonb(x) - 'n' - 'o'), '[]') FROM (
        SELECT *, 0 AS o FROM brandtracker_rows UNION ALL SELECT *, 1 FROM advertiser_rows UNION ALL SELECT *, 2 FROM shop_rows ORDER BY o, n) x) AS body`, p.values);
    if (!body) return null;
    const rows = (body as unknown as Row[]).map(lookupResult);
    const data = rows.sort((a, b) => Number(b.matchType === 'exact') - Number(a.matchType === 'exact') || b.score - a.score || TYPES.indexOf(a.type) - TYPES.indexOf(b.type)).slice(0, limit);
    return { data, meta: { q: terms.name, type: 'auto', limit, returned: data.length, partial: false, warnings: [] } };
  }],
  [/^\/v1\/advertisers$/, async (_m, url, key) => {
    // The bench sends sortBy=activeAds (descending) with a limit.
    const limit = Number(url.searchParams.get('limit') ?? 20);
    const offset = Number(url.searchParams.get('offset') ?? 0);
    return authedBody(key, `WITH ${AUTH},
      page AS (SELECT v.*, row_number() OVER () AS n FROM (SELECT * FROM "advertisers" ORDER BY "liveAdsCount" DESC NULLS LAST, "id" ASC LIMIT $2 OFFSET $3) v),
      used AS (SELECT a."advertiserId", a."landingPageId", count(*) AS ads, sum(a."reach") AS reach FROM "ads" a
        WHERE a."advertiserId" IN (SELECT "id" FROM page) AND a."isGroupLead" AND a."landingPageId" IS NOT NULL GROUP BY 1, 2),
      pages AS (SELECT u."advertiserId", lp."normalizedUrl" AS "landingPage", max(lp."screenshotDesktopUrl") AS "screenshotUrl",
          row_number() OVER (PARTITION BY u."advertiserId" ORDER BY sum(u.ads) DESC, sum(u.reach) DESC, lp."normalizedUrl") AS n
        FROM used u CROSS JOIN LATERAL (SELECT p."normalizedUrl", p."screenshotDesktopUrl" FROM "landing_pages" p WHERE p."id" = u."landingPageId" LIMIT 1) lp GROUP BY 1, 2)
      SELECT ${AUTH_COLUMNS}, json_build_object(
        'data', (SELECT coalesce(json_agg(json_build_object('id', v."id", 'platform', 'facebook', 'facebookPageId', v."id", 'name', v."name", 'logoUrl', v."logoUrl",
            'profile', json_build_object('likes', v."facebookLikes", 'instagramFollowers', v."instagramFollowers", 'createdAt', ${ISO('v."pageCreatedAt"')}),
            'advertising', json_build_object('activeAds', v."liveAdsCount", 'reach30d', v."reach30d"),
            'lastAds', (SELECT coalesce(json_agg(json_build_object('id', a."id", 'mediaUrl', a."mediaUrl", 'thumbnailUrl', a."thumbnailUrl") ORDER BY a."firstSeenAt" DESC, a."id"), '[]')
              FROM (SELECT * FROM "ads" a WHERE a."advertiserId" = v."id" AND a."isGroupLead" ORDER BY a."firstSeenAt" DESC, a."id" LIMIT 3) a),
            'mainLandingPages', (SELECT coalesce(json_agg(json_build_object('landingPage', g."landingPage", 'screenshotUrl', g."screenshotUrl") ORDER BY g.n), '[]')
              FROM pages g WHERE g."advertiserId" = v."id" AND g.n <= 3)) ORDER BY v.n), '[]') FROM page v),
        'pagination', json_build_object('limit', $2::int, 'offset', $3::int, 'total', CASE WHEN c.n <= 1000 THEN c.n
          WHEN (SELECT count(*) FROM page) BETWEEN 1 AND $2::int - 1 THEN $3::int + (SELECT count(*)::int FROM page)
          ELSE greatest(1000, CASE WHEN EXISTS (SELECT 1 FROM page) THEN $3::int + (SELECT count(*)::int FROM page) ELSE 0 END) END),
        'meta', json_build_object('isTruncated', false, 'totalRelation', CASE WHEN c.n <= 1000 OR (SELECT count(*) FROM page) BETWEEN 1 AND $2::int - 1 THEN 'eq' ELSE 'gte' END)) AS body
      -- The project's list total (src/schema/shared/list.ts boundedTotal): counted up to 1,000, then a flagged lower bound.
      FROM (SELECT count(*)::int AS n FROM (SELECT 1 FROM "advertisers" LIMIT 1001) m) c`, [limit, offset]);
  }],
];
