import { AUTH, AUTH_COLUMNS, authedBody, ISO, type Route } from './floor-common.js';

// The floor of S10 (issue 17): GET /v1/shops with a category, a pixel and a Shopify app (the facet filters) sorted
// by monthly visits, as shop summaries (catalog, traffic, the figures of the shop's pages' ads, TikTok). One statement.

/**
 * Shop summaries of the shops in `page` (columns id and n, the order), as one JSON array: the catalog and traffic
 * of the shop row, and the figures read set-based from the page's ads (as the project's shops/service/figures-loader.ts does).
 */
export const SHOP_SUMMARIES = `
    links AS (SELECT l."shopId", l."advertiserId" FROM "advertiser_shops" l WHERE l."shopId" IN (SELECT id FROM page)),
    pads AS MATERIALIZED (
      SELECT k."shopId", a."id", a."status", a."firstSeenAt", a."lastSeenAt", a."isGroupLead", a."mediaType", a."mediaUrl", a."thumbnailUrl", a."targetedCountries"
      FROM links k JOIN "ads" a ON a."advertiserId" = k."advertiserId"),
    weeks AS (SELECT w FROM generate_series(date_trunc('week', now() AT TIME ZONE 'UTC') - interval '25 weeks', date_trunc('week', now() AT TIME ZONE 'UTC'), interval '1 week') w),
    weekly AS (SELECT p.id, w.w, count(x."id")::int AS n FROM page p CROSS JOIN weeks w
      LEFT JOIN pads x ON x."shopId" = p.id AND x."firstSeenAt" < w.w + interval '7 days' AND (x."status" = 'active' OR x."lastSeenAt" >= w.w) GROUP BY p.id, w.w),
    countries AS (SELECT x."shopId", code, count(*) AS n, sum(count(*)) OVER (PARTITION BY x."shopId") AS total,
        row_number() OVER (PARTITION BY x."shopId" ORDER BY count(*) DESC, code) AS position
      FROM pads x, unnest(x."targetedCountries") AS code WHERE x."status" = 'active' GROUP BY x."shopId", code),
    latest AS (SELECT x.*, row_number() OVER (PARTITION BY x."shopId" ORDER BY x."firstSeenAt" DESC, x."id") AS position FROM pads x WHERE x."isGroupLead"),
    profiles AS (SELECT DISTINCT ON (p."shopId") p.* FROM "tiktok_profiles" p WHERE p."shopId" IN (SELECT id FROM page) ORDER BY p."shopId", p."followers" DESC, p."id"),
    summaries AS (SELECT g.n, g.id, jsonb_strip_nulls(jsonb_build_object('tiktok', (SELECT json_build_object('hasTikTok', true, 'pageId', t."id", 'handle', t."handle",
          'profileMetrics', json_build_object('followers', t."followers", 'totalPosts', t."totalTikToks", 'newPosts', t."newTikToks", 'totalViews', t."views", 'totalLikes', t."likes"),
          'activity', json_build_object(
            'activeAds', (SELECT count(*) FROM "tiktok_items" i WHERE i."profileId" = t."id" AND i."type" = 'ad' AND i."status" = 'active'),
            'totalAds', (SELECT count(*) FROM "tiktok_items" i WHERE i."profileId" = t."id" AND i."type" = 'ad'),
            'avgActiveAds7d', (SELECT round(avg(x."adsCount")::numeric, 2)::float8 FROM (SELECT n."adsCount" FROM "tiktok_page_snapshots" n WHERE n."profileId" = t."id" ORDER BY n."date" DESC LIMIT 7) x),
            'avgActiveAds30d', (SELECT round(avg(x."adsCount")::numeric, 2)::float8 FROM (SELECT n."adsCount" FROM "tiktok_page_snapshots" n WHERE n."profileId" = t."id" ORDER BY n."date" DESC LIMIT 30) x)),
          'lastUpdatedAt', (SELECT ${ISO('max(n."recordedAt")')} FROM "tiktok_page_snapshots" n WHERE n."profileId" = t."id"))
        FROM profiles t WHERE t."shopId" = g.id))) || jsonb_build_object(
      'id', s."id", 'domain', s."domain", 'name', s."name", 'screenshotUrl', s."screenshotUrl", 'createdAt', ${ISO('s."createdAt"')},
      'profile', json_build_object('countryCode', s."countryCode", 'currency', s."currency", 'isShopifyPlus', s."isShopifyPlus"),
      'catalog', json_build_object('productsCount', s."productsCount", 'mainCategory', s."categories"[1],
        'bestSellers', (SELECT coalesce(json_agg(json_build_object('imageUrl', b."imageUrl", 'title', b."title", 'price', b."price"::float8, 'currency', b."currency") ORDER BY b."bestSellerPosition", b."id"), '[]')
          FROM (SELECT * FROM "products" b WHERE b."shopId" = s."id" AND b."bestSellerPosition" IS NOT NULL ORDER BY b."bestSellerPosition", b."id" LIMIT 3) b)),
      'traffic', json_build_object('monthlyVisits', s."monthlyVisits", 'growth30d', s."trafficGrowth30d",
        'history', (SELECT coalesce(json_agg(json_build_object('period', to_char(m."month", 'YYYY-MM-DD'), 'value', m."visits") ORDER BY m."month"), '[]')
          FROM (SELECT * FROM "shop_traffic_months" m WHERE m."shopId" = s."id" ORDER BY m."month" DESC LIMIT 6) m),
        'topCountries', (SELECT coalesce(json_agg(json_build_object('countryCode', c."countryCode", 'share', c."share") ORDER BY c."share" DESC, c."countryCode"), '[]')
          FROM (SELECT * FROM "shop_traffic_countries" c WHERE c."shopId" = s."id" ORDER BY c."share" DESC, c."countryCode" LIMIT 5) c)),
      'advertising', json_build_object(
        'activeAds', (SELECT count(*)::int FROM pads x WHERE x."shopId" = g.id AND x."status" = 'active'),
        'linkedAdvertisersCount', (SELECT count(*)::int FROM links k WHERE k."shopId" = g.id),
        'history', (SELECT json_agg(json_build_object('period', to_char(w.w, 'YYYY-MM-DD'), 'value', w.n) ORDER BY w.w) FROM weekly w WHERE w.id = g.id),
        'topCountries', (SELECT coalesce(json_agg(json_build_object('countryCode', c.code, 'share', round(c.n::numeric / c.total, 4)::float8) ORDER BY c.position), '[]')
          FROM countries c WHERE c."shopId" = g.id AND c.position <= 5)),
      'latestAds', (SELECT coalesce(json_agg(json_build_object('id', x."id", 'mediaType', CASE WHEN x."mediaType" = 'video' THEN 'video' ELSE 'image' END,
          'mediaUrl', x."mediaUrl", 'thumbnailUrl', x."thumbnailUrl") ORDER BY x.position), '[]') FROM latest x WHERE x."shopId" = g.id AND x.position <= 3)) AS summary
      FROM page g JOIN "shops" s ON s."id" = g.id)`;

// The project's list total (src/schema/shared/list.ts boundedTotal): counted up to 1,000, then a flagged lower bound.
const TOTAL_CAP = 1_000;

const ids = (url: URL, name: string) => url.searchParams.getAll(name).flatMap((value) => value.split(',')).filter(Boolean);

export const shopRoutes: Route[] = [
  [/^\/v1\/shops$/, async (_m, url, key) => {
    const limit = Number(url.searchParams.get('limit') ?? 32);
    const offset = Number(url.searchParams.get('offset') ?? 0);
    const where = `s."categoryIds" && $2::int[] AND EXISTS (SELECT 1 FROM "shop_pixels" x WHERE x."shopId" = s."id" AND x."pixelId" = ANY($3::uuid[]))
      AND EXISTS (SELECT 1 FROM "shop_apps" x WHERE x."shopId" = s."id" AND x."appId" = ANY($4::int[]))`;
    return authedBody(key, `WITH ${AUTH},
      page AS (SELECT s."id", row_number() OVER (ORDER BY s."monthlyVisits" DESC NULLS LAST, s."id") AS n FROM "shops" s WHERE ${where}
        ORDER BY s."monthlyVisits" DESC NULLS LAST, s."id" LIMIT $5 OFFSET $6), ${SHOP_SUMMARIES}
      SELECT ${AUTH_COLUMNS}, json_build_object(
        'data', (SELECT coalesce(json_agg(summary ORDER BY n), '[]') FROM summaries),
        'pagination', json_build_object('limit', $5::int, 'offset', $6::int, 'total', CASE WHEN c.n <= ${TOTAL_CAP} THEN c.n
          WHEN (SELECT count(*) FROM page) BETWEEN 1 AND $5::int - 1 THEN $6::int + (SELECT count(*)::int FROM page)
          ELSE greatest(${TOTAL_CAP}, CASE WHEN EXISTS (SELECT 1 FROM page) THEN $6::int + (SELECT count(*)::int FROM page) ELSE 0 END) END),
        'meta', json_build_object('totalRelation', CASE WHEN c.n <= ${TOTAL_CAP} OR (SELECT count(*) FROM page) BETWEEN 1 AND $5::int - 1 THEN 'eq' ELSE 'gte' END)) AS body
      FROM (SELECT count(*)::int AS n FROM (SELECT 1 FROM "shops" s WHERE ${where} LIMIT ${TOTAL_CAP + 1}) m) c`,
    [ids(url, 'categoryIds').map(Number), ids(url, 'pixelIds'), ids(url, 'shopifyAppIds').map(Number), limit, offset]);
  }],
];
