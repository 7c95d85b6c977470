import { Prisma } from '../../../generated/prisma/client.js';
import { jsonIso, jsonNumber, jsonText, jsonTextArray } from '../../shared/json-rows.js';
import type { ExportRows } from '../../shared/list.js';
import { mediaUrlSql } from '../../shared/media-url.js';
import { mainTikTokProfile } from './figures-loader.js';

// A shop summary as REST shows it (ShopSummary, types.ts, the route's whole selection, `tiktok` left out when null),
// written by PostgreSQL for an export read in bulk (ExportRows, shared/list.ts). Its figures are figures-loader.ts's,
// computed for one shop at a time: the ads of its linked pages (active ads, the weekly history of the 26 latest weeks,
// the targeted countries, the latest ads) and its main TikTok profile. test/exports/bulk-lists.test.ts compares an
// export with the route's pages walked to the end.

const sql = Prisma.sql;

/** The ads of the shop's linked Facebook pages (figures-loader.ts's `pads`). */
const SHOP_ADS = sql`SELECT a."id", a."status", a."firstSeenAt", a."lastSeenAt", a."isGroupLead", a."mediaType", a."mediaUrl", a."thumbnailUrl", a."targetedCountries"
  FROM "advertiser_shops" l JOIN "ads" a ON a."advertiserId" = l."advertiserId" WHERE l."shopId" = s."id"`;

const WEEKS = sql`SELECT w.w, count(x."id") AS n
  FROM generate_series(date_trunc('week', now() AT TIME ZONE 'UTC') - interval '25 weeks', date_trunc('week', now() AT TIME ZONE 'UTC'), interval '1 week') w
  LEFT JOIN (${SHOP_ADS}) x ON x."firstSeenAt" < w.w + interval '7 days' AND (x."status" = 'active' OR x."lastSeenAt" >= w.w)
  GROUP BY w.w`;

const AD_COUNTRIES = sql`SELECT q.code, round(q.n::numeric / sum(q.n) OVER (), 4)::float8 AS share, q.n
  FROM (SELECT code, count(*) AS n FROM (${SHOP_ADS}) x, unnest(x."targetedCountries") AS code WHERE x."status" = 'active' GROUP BY code) q`;

const point = (period: string, value: string) => jsonText([['period', `to_json(${period})::text`, 'json'], ['value', ...jsonNumber(value)]]);
const countryShare = (code: string, value: string) => jsonText([['countryCode', code], ['share', ...jsonNumber(value)]]);

/** The average of the profile's (`t`) live ads over its latest `days` daily snapshots (figures-loader.ts). */
const avgLatestSnapshots = (days: number) =>
  sql`(SELECT round(avg(x."adsCount")::numeric, 2)::float8 FROM (SELECT n."adsCount" FROM "tiktok_page_snapshots" n WHERE n."profileId" = t."id" ORDER BY n."date" DESC LIMIT ${days}) x)`;

function item(base: Prisma.Sql): Prisma.Sql {
  const bestSeller = jsonText([['imageUrl', mediaUrlSql('p."imageUrl"', base)], ['title', 'p."title"'], ['price', ...jsonNumber('p."price"::float8')], ['currency', 'p."currency"']]);
  const latestAd = jsonText([
    ['id', 'x."id"'], ['mediaType', `(CASE WHEN x."mediaType" = 'video' THEN '"video"' ELSE '"image"' END)`, 'json'],
    ['mediaUrl', mediaUrlSql('x."mediaUrl"', base)], ['thumbnailUrl', mediaUrlSql('x."thumbnailUrl"', base)],
  ]);
  const tiktok = sql`(SELECT ${jsonText([
    ['hasTikTok', `'true'`, 'json'], ['pageId', 't."id"'], ['handle', 't."handle"'],
    ['profileMetrics', jsonText([
      ['followers', ...jsonNumber('t."followers"')], ['totalPosts', ...jsonNumber('t."totalTikToks"')], ['newPosts', ...jsonNumber('t."newTikToks"')],
      ['totalViews', ...jsonNumber('t."views"')], ['totalLikes', ...jsonNumber('t."likes"')],
    ]), 'json'],
    ['activity', jsonText([
      ['activeAds', ...jsonNumber(`(SELECT count(*) FROM "tiktok_items" i WHERE i."profileId" = t."id" AND i."type" = 'ad' AND i."status" = 'active')`)],
      ['totalAds', ...jsonNumber(`(SELECT count(*) FROM "tiktok_items" i WHERE i."profileId" = t."id" AND i."type" = 'ad')`)],
      ['avgActiveAds7d', ...jsonNumber(avgLatestSnapshots(7))], ['avgActiveAds30d', ...jsonNumber(avgLatestSnapshots(30))],
    ]), 'json'],
    ['lastUpdatedAt', ...jsonIso(`(SELECT max(n."recordedAt") FROM "tiktok_page_snapshots" n WHERE n."profileId" = t."id")`)],
  ])} FROM (${mainTikTokProfile(sql`s."id"`)}) t)`;
  return jsonText([
    ['id', 's."id"'], ['domain', 's."domain"'], ['name', 's."name"'], ['screenshotUrl', mediaUrlSql('s."screenshotUrl"', base)], ['createdAt', ...jsonIso('s."createdAt"')],
    ['profile', jsonText([['countryCode', 's."countryCode"'], ['currency', 's."currency"'], ['isShopifyPlus', ...jsonNumber('s."isShopifyPlus"')]]), 'json'],
    ['catalog', jsonText([
      ['productsCount', ...jsonNumber('s."productsCount"')], ['mainCategory', 's."categories"[1]'],
      ['bestSellers', jsonTextArray(bestSeller, sql`FROM (SELECT * FROM "products" p WHERE p."shopId" = s."id" AND p."bestSellerPosition" IS NOT NULL
        ORDER BY p."bestSellerPosition", p."id" LIMIT 3) p`, sql`p."bestSellerPosition", p."id"`), 'json'],
    ]), 'json'],
    ['traffic', jsonText([
      ['monthlyVisits', ...jsonNumber('s."monthlyVisits"')], ['growth30d', ...jsonNumber('s."trafficGrowth30d"')],
      ['history', jsonTextArray(point(`to_char(m."month", 'YYYY-MM-DD')`, 'm."visits"'),
        sql`FROM (SELECT * FROM "shop_traffic_months" m WHERE m."shopId" = s."id" ORDER BY m."month" DESC LIMIT 6) m`, sql`m."month"`), 'json'],
      ['topCountries', jsonTextArray(countryShare('c."countryCode"', 'c."share"'),
        sql`FROM (SELECT * FROM "shop_traffic_countries" c WHERE c."shopId" = s."id" ORDER BY c."share" DESC, c."countryCode" LIMIT 5) c`, sql`c."share" DESC, c."countryCode"`), 'json'],
    ]), 'json'],
    ['advertising', jsonText([
      ['activeAds', ...jsonNumber(sql`(SELECT count(*) FROM (${SHOP_ADS}) x WHERE x."status" = 'active')`)],
      ['linkedAdvertisersCount', ...jsonNumber(`(SELECT count(*) FROM "advertiser_shops" k WHERE k."shopId" = s."id")`)],
      ['history', jsonTextArray(point(`to_char(w.w, 'YYYY-MM-DD')`, 'w.n'), sql`FROM (${WEEKS}) w`, sql`w.w`), 'json'],
      ['topCountries', jsonTextArray(countryShare('c.code', 'c.share'), sql`FROM (SELECT * FROM (${AD_COUNTRIES}) c ORDER BY c.n DESC, c.code LIMIT 5) c`, sql`c.n DESC, c.code`), 'json'],
    ]), 'json'],
    // omitNull writes its value with to_json: as json, the object's text is written as it is.
    ['tiktok', sql`${tiktok}::json`, 'omitNull'],
    ['latestAds', jsonTextArray(latestAd, sql`FROM (SELECT * FROM (${SHOP_ADS}) x WHERE x."isGroupLead" ORDER BY x."firstSeenAt" DESC, x."id" LIMIT 3) x`, sql`x."firstSeenAt" DESC, x."id"`), 'json'],
  ]);
}

/** How the shops lists' rows (`s`) are written in bulk for an export. */
export const EXPORTED_SHOPS: ExportRows = { from: sql`FROM "shops" s`, item };
