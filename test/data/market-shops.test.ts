import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refreshFacetUsage } from '../../src/data/facet-usage.js';
import { MARKET_TABLES } from '../../src/data/market.js';
import { PLATFORM_SLUGS, TECHNOLOGIES } from '../../src/data/market/facets.js';
import { COUNTRY_LANGUAGE } from '../../src/data/market/locale.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { sqlProbe, tableCounts } from '../support/sql.js';
import { TINY_MARKET_42 } from '../support/tiny-market.js';

// Shop profiles, their facets and histories in the synthetic market: the rows agree with each other and with
// the figures the API derives from them.

const AS_OF = '2025-06-01';
const AD_FILTER_SLUGS = [
  'checkoutchamp', 'clickfunnels', 'funnelish', 'gempages', 'magento', 'odoo', 'pagefly', 'prestashop', 'shopify', 'shoplazza',
  'shopline', 'squarespace', 'wheelio', 'wix', 'woocommerce', 'wordpress', 'zipify-pages',
];

let db: TestDatabase;
let counts: Record<string, number>;

const { offenders, one } = sqlProbe(() => db);

/** Facets whose usageCount differs from the shops that use them. */
const USAGE_OFFENDERS = `
  SELECT 'app' AS facet, a.id::text, a."usageCount", (SELECT count(*) FROM shop_apps s WHERE s."appId" = a.id) AS n FROM shopify_apps a
   WHERE a."usageCount" <> (SELECT count(*) FROM shop_apps s WHERE s."appId" = a.id)
  UNION ALL
  SELECT 'technology', t.slug, t."usageCount", (SELECT count(*) FROM shop_technologies s WHERE s."technologyId" = t.id) FROM technologies t
   WHERE t."usageCount" <> (SELECT count(*) FROM shop_technologies s WHERE s."technologyId" = t.id)
  UNION ALL
  SELECT 'pixel', p.slug, p."usageCount", (SELECT count(*) FROM shop_pixels s WHERE s."pixelId" = p.id) FROM pixels p
   WHERE p."usageCount" <> (SELECT count(*) FROM shop_pixels s WHERE s."pixelId" = p.id)
  UNION ALL
  SELECT 'theme', t.name, t."usageCount", (SELECT count(*) FROM shops s WHERE s."themeId" = t.id) FROM themes t
   WHERE t."usageCount" <> (SELECT count(*) FROM shops s WHERE s."themeId" = t.id)
  UNION ALL
  SELECT 'category', c.id::text, c."usageCount", (SELECT count(*) FROM shops s WHERE c.id = ANY(s."categoryIds")) FROM categories c
   WHERE c."usageCount" <> (SELECT count(*) FROM shops s WHERE c.id = ANY(s."categoryIds"))`;

beforeAll(async () => {
  db = await createTestDatabase({ market: TINY_MARKET_42 });
  counts = await tableCounts(db, MARKET_TABLES);
});

afterAll(async () => {
  await db?.dispose();
});

describe('shop profiles (tiny)', () => {
  it('fills every shop-profile and facet table', () => {
    expect(counts.shops).toBe(1000);
    expect(counts.shop_traffic_months).toBe(12 * 1000);
    expect(counts.shop_sales_readings).toBe(13 * 1000);
    for (const table of ['themes', 'shopify_apps', 'technologies', 'pixels', 'shop_apps', 'shop_technologies', 'shop_pixels', 'shop_traffic_countries']) {
      expect(counts[table], table).toBeGreaterThan(20);
    }
    expect(counts.shop_social_days % 90).toBe(0);
    expect(counts.shop_social_days / 90).toBeGreaterThan(300);
    expect(counts.shop_social_days / 90).toBeLessThan(600);
  });

  it('copies each shop\'s apps, pixels and technologies into its arrays, as the link tables hold them', async () => {
    const agg = (table: string, column: string) => `coalesce((SELECT array_agg(x."${column}" ORDER BY x."${column}") FROM ${table} x WHERE x."shopId" = s.id), '{}')`;
    expect(
      await offenders(
        `SELECT s.id FROM shops s WHERE s."appIds" <> ${agg('shop_apps', 'appId')} OR s."pixelIds" <> ${agg('shop_pixels', 'pixelId')}
           OR s."technologyIds" <> ${agg('shop_technologies', 'technologyId')}`,
      ),
    ).toEqual([]);
    expect(Number((await one<{ n: number }>(`SELECT count(*) AS n FROM shops WHERE "appIds" <> '{}' AND "pixelIds" <> '{}'`)).n)).toBeGreaterThan(100);
  });

  it('has twelve traffic months per shop, ending at asOf month with monthlyVisits and agreeing with the growth figures', async () => {
    expect(
      await offenders(
        `SELECT "shopId", count(*), min(month), max(month) FROM shop_traffic_months GROUP BY 1
         HAVING count(*) <> 12 OR min(month) <> date '2024-07-01' OR max(month) <> date '${AS_OF}'`,
      ),
    ).toEqual([]);
    expect(
      await offenders(
        `SELECT s.id, s."monthlyVisits", m.visits FROM shops s LEFT JOIN shop_traffic_months m ON m."shopId" = s.id AND m.month = date '${AS_OF}'
         WHERE m.visits IS DISTINCT FROM s."monthlyVisits"`,
      ),
    ).toEqual([]);
    // Each month's visits by offset back from asOf (0 = current).
    const back = (n: number) => `(SELECT visits FROM shop_traffic_months m WHERE m."shopId" = s.id AND m.month = date '${AS_OF}' - interval '${n} month')`;
    expect(
      await offenders(
        `SELECT s.id, s."trafficGrowth30d", ${back(1)} AS previous, s."monthlyVisits" FROM shops s
         WHERE abs(s."monthlyVisits" - ${back(1)} * (1 + s."trafficGrowth30d")) > 0.5 * (1 + s."trafficGrowth30d") + 1e-9`,
      ),
    ).toEqual([]);
    expect(
      await offenders(
        `SELECT s.id, s."trafficGrowth90d", s."trafficGrowth180d" FROM shops s
         WHERE abs(s."trafficGrowth90d" - (s."monthlyVisits"::float8 / ${back(3)} - 1)) > 0.0005 + 1e-9
            OR abs(s."trafficGrowth180d" - (s."monthlyVisits"::float8 / ${back(6)} - 1)) > 0.0005 + 1e-9`,
      ),
    ).toEqual([]);
    expect(await offenders(`SELECT id FROM shops WHERE "displayInTrending" AND ("trafficGrowth30d" < 0.3 OR "trafficGrowth90d" <= 0)`)).toEqual([]);
    const { trending } = await one(`SELECT avg("displayInTrending"::int)::float8 AS trending FROM shops`);
    expect(trending).toBeGreaterThan(0.01);
    expect(trending).toBeLessThan(0.1);
  });

  it('lists one to five traffic countries per shop, shares adding up to at most 1, the main market first', async () => {
    expect(
      await offenders(
        `SELECT s.id, s."mainMarket", count(c.*) AS n, sum(c.share) AS total, max(c.share) AS top,
                max(c.share) FILTER (WHERE c."countryCode" = s."mainMarket") AS main
         FROM shops s LEFT JOIN shop_traffic_countries c ON c."shopId" = s.id GROUP BY s.id
         HAVING count(c.*) NOT BETWEEN 1 AND 5 OR sum(c.share) > 1 + 1e-9 OR min(c.share) <= 0
             OR max(c.share) FILTER (WHERE c."countryCode" = s."mainMarket") IS DISTINCT FROM max(c.share)`,
      ),
    ).toEqual([]);
    const { home } = await one(`SELECT avg(("mainMarket" = "countryCode")::int)::float8 AS home FROM shops`);
    expect(home).toBeGreaterThan(0.75);
    expect(home).toBeLessThan(0.95);
  });

  it('gives storefront fields consistent with the shop: language, currency, Shopify domain, Plus, Trustpilot', async () => {
    const languages = Object.entries(COUNTRY_LANGUAGE).map(([country, language]) => `('${country}', '${language}')`).join(', ');
    expect(
      await offenders(
        `SELECT s.id, s."countryCode", s."defaultLanguage" FROM shops s JOIN (VALUES ${languages}) AS l(country, language) ON l.country = s."countryCode"
         WHERE s."defaultLanguage" NOT IN (l.language, 'en')`,
      ),
    ).toEqual([]);
    const currencies = (await db.pool.query<{ currency: string | null }>(`SELECT DISTINCT currency FROM shops`)).rows.map((row) => row.currency);
    const iso4217 = new Set(Intl.supportedValuesOf('currency'));
    expect(currencies.filter((currency) => currency === null || !iso4217.has(currency))).toEqual([]);
    expect(currencies.length).toBeGreaterThan(5);
    expect(
      await offenders(`SELECT p.id, p.currency, s.currency FROM products p JOIN shops s ON s.id = p."shopId" WHERE p.currency <> s.currency`),
    ).toEqual([]);
    expect(
      await offenders(
        `SELECT id, "myShopifyDomain" FROM shops WHERE "myShopifyDomain" !~ '^[a-z0-9][a-z0-9-]*\\.myshopify\\.com$'
            OR ("myShopifyDomain" IS NULL AND ("isShopifyPlus" OR "themeId" IS NOT NULL OR EXISTS (SELECT 1 FROM shop_apps a WHERE a."shopId" = shops.id)))`,
      ),
    ).toEqual([]);
    const plus = await one(
      `SELECT avg("isShopifyPlus"::int)::float8 AS share,
              percentile_cont(0.5) WITHIN GROUP (ORDER BY "monthlyVisits") FILTER (WHERE "isShopifyPlus") AS plus,
              percentile_cont(0.5) WITHIN GROUP (ORDER BY "monthlyVisits") FILTER (WHERE NOT "isShopifyPlus") AS other
       FROM shops`,
    );
    expect(plus.share).toBeGreaterThan(0.03);
    expect(plus.share).toBeLessThan(0.2);
    expect(plus.plus).toBeGreaterThan(plus.other * 2);
    expect(
      await offenders(
        `SELECT id, "trustpilotRating", "trustpilotReviews", "trustpilotUrl" FROM shops
         WHERE ("trustpilotRating" IS NULL) <> ("trustpilotUrl" IS NULL) OR ("trustpilotRating" IS NULL) <> ("trustpilotReviews" IS NULL)
            OR "trustpilotRating" NOT BETWEEN 1 AND 5 OR "trustpilotRating" * 10 <> round("trustpilotRating" * 10) OR "trustpilotReviews" < 1
            OR "trustpilotUrl" <> 'https://www.trustpilot.com/review/' || domain`,
      ),
    ).toEqual([]);
    const trustpilot = await one(
      `SELECT avg(("trustpilotRating" IS NOT NULL)::int)::float8 AS share, max("trustpilotReviews")::float8 / percentile_cont(0.5) WITHIN GROUP (ORDER BY "trustpilotReviews") AS tail FROM shops`,
    );
    expect(trustpilot.share).toBeGreaterThan(0.35);
    expect(trustpilot.share).toBeLessThan(0.6);
    expect(trustpilot.tail).toBeGreaterThan(50);
  });

  it('sets usage counts equal to the link counts, idempotently, and recounts after shops are added', async () => {
    expect(await offenders(USAGE_OFFENDERS)).toEqual([]);
    const before = await one<{ md5: string }>(`SELECT md5(string_agg(id::text || ':' || "usageCount", ',' ORDER BY id)) AS md5 FROM shopify_apps`);
    await refreshFacetUsage(db.pool);
    expect(await one(`SELECT md5(string_agg(id::text || ':' || "usageCount", ',' ORDER BY id)) AS md5 FROM shopify_apps`)).toEqual(before);

    const { id: appId } = await one<{ id: number }>(`SELECT id FROM shopify_apps ORDER BY "usageCount" ASC, id LIMIT 1`);
    const { id: themeId } = await one<{ id: string }>(`SELECT id FROM themes ORDER BY "usageCount" ASC, id LIMIT 1`);
    await db.pool.query(`INSERT INTO shops (id, domain, name, "themeId") VALUES ('00000000-0000-4000-8000-000000000001', 'imported.example', 'Imported', $1)`, [themeId]);
    await db.pool.query(`INSERT INTO shop_apps ("shopId", "appId") VALUES ('00000000-0000-4000-8000-000000000001', $1)`, [appId]);
    expect((await offenders(USAGE_OFFENDERS)).length).toBeGreaterThan(0);
    await refreshFacetUsage(db.pool);
    expect(await offenders(USAGE_OFFENDERS)).toEqual([]);
    await db.pool.query(`DELETE FROM shops WHERE id = '00000000-0000-4000-8000-000000000001'`);
    await refreshFacetUsage(db.pool);
    expect(await offenders(USAGE_OFFENDERS)).toEqual([]);
  });

  it('draws facets by popularity: Dawn the most used theme, Klaviyo or Judge.me among the top apps, Meta Pixel on most page-linked shops', async () => {
    expect(await one(`SELECT name FROM themes ORDER BY "usageCount" DESC, name LIMIT 1`)).toEqual({ name: 'Dawn' });
    const topApps = (await db.pool.query<{ slug: string }>(`SELECT slug FROM shopify_apps ORDER BY "usageCount" DESC, id LIMIT 3`)).rows.map((r) => r.slug);
    expect(topApps.some((slug) => slug === 'klaviyo' || slug.startsWith('judge-me'))).toBe(true);
    const meta = await one(
      `SELECT avg(has::int) FILTER (WHERE linked)::float8 AS linked, avg(has::int) FILTER (WHERE NOT linked)::float8 AS unlinked FROM (
         SELECT EXISTS (SELECT 1 FROM shop_pixels sp JOIN pixels p ON p.id = sp."pixelId" WHERE sp."shopId" = s.id AND p.slug = 'meta-pixel') AS has,
                EXISTS (SELECT 1 FROM advertiser_shops l WHERE l."shopId" = s.id) AS linked
         FROM shops s) t`,
    );
    expect(meta.linked).toBeGreaterThan(0.85);
    expect(meta.unlinked).toBeLessThan(0.7);
    const apps = await one(`SELECT max(n)::int AS most, avg(n)::float8 AS mean FROM (SELECT count(*) AS n FROM shop_apps GROUP BY "shopId") t`);
    expect(apps.most).toBeLessThanOrEqual(15);
    expect(apps.mean).toBeGreaterThan(2);
  });

  it('runs every shop on one platform, Shopify shops on the shopify technology, with stable facet ids', async () => {
    const platforms = PLATFORM_SLUGS.filter((slug) => slug !== 'wordpress');
    expect(
      await offenders(
        `SELECT s.id, s."myShopifyDomain", array_agg(t.slug) AS platforms FROM shops s
         LEFT JOIN shop_technologies st ON st."shopId" = s.id LEFT JOIN technologies t ON t.id = st."technologyId" AND t.slug = ANY($1)
         GROUP BY s.id HAVING count(t.slug) <> 1 OR (s."myShopifyDomain" IS NOT NULL) <> bool_or(t.slug = 'shopify')`,
        [platforms],
      ),
    ).toEqual([]);
    const { shopify } = await one(`SELECT avg(("myShopifyDomain" IS NOT NULL)::int)::float8 AS shopify FROM shops`);
    expect(shopify).toBeGreaterThan(0.8);
    const slugs = (await db.pool.query<{ slug: string }>(`SELECT slug FROM technologies`)).rows.map((r) => r.slug);
    expect(AD_FILTER_SLUGS.filter((slug) => !slugs.includes(slug))).toEqual([]);
    // Name-based ids: a change here breaks every stored filter that names them.
    expect(TECHNOLOGIES.find((t) => t.slug === 'shopify')?.id).toBe('180dc62e-bae4-5b64-a2f7-dcae1f838f49');
    expect(await one(`SELECT id FROM themes WHERE name = 'Dawn'`)).toEqual({ id: '2808cabd-a281-569d-a026-6e6d2995b486' });
    expect(await one(`SELECT id FROM shopify_apps WHERE slug = 'klaviyo'`)).toEqual({ id: 281761 });
  });

  it('keeps 90 contiguous social days for each shop with a Facebook or Instagram handle, null where it has no profile', async () => {
    expect(
      await offenders(
        `SELECT s.id, count(d.*) AS n, min(d.date), max(d.date) FROM shops s LEFT JOIN shop_social_days d ON d."shopId" = s.id GROUP BY s.id
         HAVING CASE WHEN bool_or(s."facebookHandle" IS NOT NULL OR s."instagramHandle" IS NOT NULL)
                     THEN count(d.*) <> 90 OR count(DISTINCT d.date) <> 90 OR min(d.date) <> date '${AS_OF}' - 89 OR max(d.date) <> date '${AS_OF}'
                     ELSE count(d.*) <> 0 END`,
      ),
    ).toEqual([]);
    expect(
      await offenders(
        `SELECT s.id, d.date FROM shop_social_days d JOIN shops s ON s.id = d."shopId"
         WHERE (d.facebook IS NULL) <> (s."facebookHandle" IS NULL) OR (d.instagram IS NULL) <> (s."instagramHandle" IS NULL)
            OR (d.youtube IS NULL) <> (s."youtubeHandle" IS NULL) OR d.tiktok IS NOT NULL`,
      ),
    ).toEqual([]);
    // Followers drift smoothly upwards: never down from one day to the next.
    expect(
      await offenders(
        `SELECT "shopId", date FROM (
           SELECT "shopId", date, facebook, instagram, lag(facebook) OVER w AS fb, lag(instagram) OVER w AS ig
           FROM shop_social_days WINDOW w AS (PARTITION BY "shopId" ORDER BY date)) t
         WHERE facebook < fb OR instagram < ig`,
      ),
    ).toEqual([]);
    // A shop linked to a page shows that page: its follower counts on asOf are the page's.
    expect(
      await offenders(
        `SELECT s.id, d.facebook, d.instagram FROM shops s JOIN shop_social_days d ON d."shopId" = s.id AND d.date = date '${AS_OF}'
         WHERE EXISTS (SELECT 1 FROM advertiser_shops l WHERE l."shopId" = s.id)
           AND ((d.facebook IS NOT NULL AND NOT EXISTS (SELECT 1 FROM advertiser_shops l JOIN advertisers a ON a.id = l."advertiserId"
                                                        WHERE l."shopId" = s.id AND a."facebookLikes" = d.facebook))
             OR (d.instagram IS NOT NULL AND NOT EXISTS (SELECT 1 FROM advertiser_shops l JOIN advertisers a ON a.id = l."advertiserId"
                                                        WHERE l."shopId" = s.id AND a."instagramUsername" = s."instagramHandle" AND a."instagramFollowers" = d.instagram)))`,
      ),
    ).toEqual([]);
  });

  it('takes a sales reading every 7 days up to asOf, the last one at the catalogue figures', async () => {
    expect(
      await offenders(
        `SELECT "shopId", count(*), min(date), max(date) FROM shop_sales_readings GROUP BY 1
         HAVING count(*) <> 13 OR min(date) <> date '${AS_OF}' - 84 OR max(date) <> date '${AS_OF}'
             OR bool_or((date '${AS_OF}' - date) % 7 <> 0)`,
      ),
    ).toEqual([]);
    expect(
      await offenders(
        `SELECT * FROM shop_sales_readings WHERE NOT ("revenueMinUsd" <= "revenueUsd" AND "revenueUsd" <= "revenueMaxUsd" AND "ordersCount" <= "unitsSold" AND "ordersCount" >= 0 AND "revenueMinUsd" >= 0)`,
      ),
    ).toEqual([]);
    expect(
      await offenders(
        `SELECT s.id, s."monthlyRevenueUsd", r."revenueUsd" FROM shops s JOIN shop_sales_readings r ON r."shopId" = s.id AND r.date = date '${AS_OF}'
         WHERE s."monthlyRevenueUsd" IS NOT NULL AND r."revenueUsd" <> s."monthlyRevenueUsd"`,
      ),
    ).toEqual([]);
    const { catalogued } = await one(`SELECT count("monthlyRevenueUsd")::int AS catalogued FROM shops`);
    expect(catalogued).toBe(1000);
    // The catalogue's units are its products' units.
    expect(
      await offenders(
        `SELECT s.id, r."unitsSold", sum(p."monthlyUnitsSold") AS products FROM shops s
         JOIN shop_sales_readings r ON r."shopId" = s.id AND r.date = date '${AS_OF}' JOIN products p ON p."shopId" = s.id
         GROUP BY s.id, r."unitsSold" HAVING r."unitsSold" <> sum(p."monthlyUnitsSold")`,
      ),
    ).toEqual([]);
  });

  it('counts shops per category', async () => {
    expect((await one<{ n: number }>(`SELECT count(*)::int AS n FROM categories WHERE "usageCount" > 0`)).n).toBeGreaterThan(5);
  });

  it("ranks each shop's pages by their ads, the main page first", async () => {
    expect(
      await offenders(
        `SELECT "shopId" FROM advertiser_shops GROUP BY "shopId"
         HAVING count(*) FILTER (WHERE "isMain") <> 1 OR min(rank) <> 1 OR max(rank) <> count(*) OR count(DISTINCT rank) <> count(*)
             OR bool_or("isMain" AND rank <> 1)`,
      ),
    ).toEqual([]);
    expect(
      await offenders(
        `SELECT l."shopId" FROM advertiser_shops l JOIN advertiser_shops m ON m."shopId" = l."shopId" AND m."isMain"
         JOIN (SELECT "advertiserId", count(*) AS n FROM ads GROUP BY 1) la ON la."advertiserId" = l."advertiserId"
         JOIN (SELECT "advertiserId", count(*) AS n FROM ads GROUP BY 1) ma ON ma."advertiserId" = m."advertiserId"
         WHERE la.n > ma.n`,
      ),
    ).toEqual([]);
  });

  it("gives a shop with an account in the TikTok library that account's handle", async () => {
    expect(
      await offenders(
        `SELECT s.id, s."tiktokHandle" FROM shops s
         WHERE EXISTS (SELECT 1 FROM tiktok_profiles p WHERE p."shopId" = s.id)
           AND s."tiktokHandle" IS DISTINCT FROM (SELECT p.handle FROM tiktok_profiles p WHERE p."shopId" = s.id ORDER BY p.id LIMIT 1)
           AND NOT EXISTS (SELECT 1 FROM tiktok_profiles p WHERE p."shopId" = s.id AND p.handle = s."tiktokHandle")`,
      ),
    ).toEqual([]);
    expect((await one<{ n: number }>(`SELECT count(DISTINCT "shopId")::int AS n FROM tiktok_profiles WHERE "shopId" IS NOT NULL`)).n).toBeGreaterThan(0);
  });
});
