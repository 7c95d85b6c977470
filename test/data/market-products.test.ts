import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MARKET_TABLES } from '../../src/data/market.js';
import { EU_CPM_USD, PRODUCT_WEEKS } from '../../src/data/market/product-ads.js';
import { USD_PER_UNIT } from '../../src/data/usd-rates.js';
import { EU_UK } from '../../src/data/market/words.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { sqlProbe, tableCounts } from '../support/sql.js';
import { TINY_MARKET_42 } from '../support/tiny-market.js';

const AS_OF = '2025-06-01';

let db: TestDatabase;
let counts: Record<string, number>;

const { offenders, one } = sqlProbe(() => db);

beforeAll(async () => {
  db = await createTestDatabase({ market: TINY_MARKET_42 });
  counts = await tableCounts(db, MARKET_TABLES);
});

afterAll(async () => {
  await db?.dispose();
});

describe('synthetic products (tiny)', () => {
  it('generates about the scale of products, with 1-4 variants and images each and 13 weeks per advertised product', async () => {
    expect(Math.abs(counts.products - 10_000)).toBeLessThanOrEqual(1000);
    const { variants, images, advertised } = await one(
      `SELECT (SELECT count(*) FROM product_variants)::float8 / count(*) AS variants, (SELECT count(*) FROM product_images)::float8 / count(*) AS images,
              avg(("totalAds" > 0)::int)::float8 AS advertised
       FROM products`,
    );
    // Row budgets at medium: at most 2.5 variants, 2.5 images and 2.8 weeks per product.
    expect(variants).toBeGreaterThan(1.5);
    expect(variants).toBeLessThanOrEqual(2.5);
    expect(images).toBeGreaterThan(1.5);
    expect(images).toBeLessThanOrEqual(2.5);
    expect(advertised).toBeGreaterThan(0.12);
    expect(advertised * PRODUCT_WEEKS).toBeLessThanOrEqual(2.8);
    expect(counts.product_weeks).toBe(Math.round(advertised * counts.products) * PRODUCT_WEEKS);
    expect(
      await offenders(
        `SELECT p.id FROM products p
         WHERE (SELECT count(*) FROM product_variants v WHERE v."productId" = p.id) NOT BETWEEN 1 AND 4
            OR (SELECT count(*) FROM product_images i WHERE i."productId" = p.id) NOT BETWEEN 1 AND 4`,
      ),
    ).toEqual([]);
  });

  it('gives every shop its productsCount of products, with Shopify-shaped ids, unique handles and storefront urls', async () => {
    expect(
      await offenders(
        `SELECT s.id, s."productsCount", count(p.id) FROM shops s LEFT JOIN products p ON p."shopId" = s.id
         GROUP BY s.id HAVING count(p.id) <> s."productsCount" OR count(p.id) = 0`,
      ),
    ).toEqual([]);
    expect(
      await offenders(
        `SELECT p.id FROM products p JOIN shops s ON s.id = p."shopId"
         WHERE p.id <> p."shopId" || ':' || p."shopifyId" OR p."shopifyId" !~ '^[1-9][0-9]{12,13}$'
            OR p.handle !~ '^[a-z0-9]+(-[a-z0-9]+)*$' OR p.url <> 'https://' || s.domain || '/products/' || p.handle
            OR p.vendor <> s.name OR p.title = '' OR p.description = '' OR p."productType" IS NULL OR cardinality(p.tags) = 0`,
      ),
    ).toEqual([]);
    expect(await offenders(`SELECT "shopId", handle FROM products GROUP BY 1, 2 HAVING count(*) > 1`)).toEqual([]);
  });

  it('ranks each shop’s products 1..n by monthly revenue, the best seller at percentile 100', async () => {
    expect(
      await offenders(
        `SELECT "shopId" FROM products GROUP BY 1
         HAVING min("bestSellerPosition") <> 1 OR max("bestSellerPosition") <> count(*) OR count(DISTINCT "bestSellerPosition") <> count(*)
            OR max("bestSellerPercentile") FILTER (WHERE "bestSellerPosition" = 1) <> 100`,
      ),
    ).toEqual([]);
    expect(
      await offenders(
        `SELECT a.id, b.id FROM products a JOIN products b ON b."shopId" = a."shopId" AND b."bestSellerPosition" > a."bestSellerPosition"
         WHERE b."monthlyRevenueUsd" > a."monthlyRevenueUsd" OR b."bestSellerPercentile" > a."bestSellerPercentile" OR b."bestSellerPercentile" <= 0`,
      ),
    ).toEqual([]);
  });

  it('agrees with the shop catalogue figures: currency, best-seller price and monthly revenue', async () => {
    // Every shop has products, so every shop has a best seller.
    expect((await one(`SELECT count(*)::int AS n FROM shops WHERE "bestSellerPriceUsd" IS NULL`)).n).toBe(0);
    expect(
      await offenders(
        `SELECT s.id FROM shops s JOIN products p ON p."shopId" = s.id GROUP BY s.id
         HAVING max(s."bestSellerPriceUsd") <> max(p."priceUsd") FILTER (WHERE p."bestSellerPosition" = 1)::float8
             OR max(s."monthlyRevenueUsd") <> round(sum(round(p."monthlyRevenueUsd"::numeric, 2))) OR bool_or(p.currency <> s.currency)`,
      ),
    ).toEqual([]);
  });

  it('prices in the shop currency with 2 decimals, USD at fixed rates, sales only below a compare-at price', async () => {
    const rates = Object.entries(USD_PER_UNIT);
    expect(
      await offenders(
        `SELECT p.id FROM products p LEFT JOIN unnest($1::text[], $2::float8[]) r(currency, rate) ON r.currency = p.currency
         WHERE r.rate IS NULL OR abs(p."priceUsd"::float8 - p.price::float8 * r.rate) > 0.00501 OR p.price < 0
            OR (p."compareAtPrice" IS NOT NULL AND p."compareAtPrice" <= p.price)
            OR p."promoTypes" <> CASE WHEN p."compareAtPrice" IS NULL THEN '{}'::text[] ELSE '{percent-off}' END`,
        [rates.map(([code]) => code), rates.map(([, rate]) => rate)],
      ),
    ).toEqual([]);
    const { sale, subscription, free, currencies } = await one(
      `SELECT avg(("compareAtPrice" IS NOT NULL)::int)::float8 AS sale, avg("isSubscription"::int)::float8 AS subscription,
              count(*) FILTER (WHERE price = 0)::int AS free, count(DISTINCT currency)::int AS currencies
       FROM products`,
    );
    expect(sale).toBeGreaterThan(0.18);
    expect(sale).toBeLessThan(0.32);
    expect(subscription).toBeGreaterThan(0.01);
    expect(subscription).toBeLessThan(0.06);
    expect(free).toBeLessThan(counts.products * 0.01);
    expect(currencies).toBeGreaterThan(8);
  });

  it('dates every product between its shop’s creation and asOf, published and updated after creation', async () => {
    expect(
      await offenders(
        `SELECT p.id FROM products p JOIN shops s ON s.id = p."shopId"
         WHERE p."createdAt" < s."createdAt" OR p."publishedAt" IS NULL OR p."publishedAt" < p."createdAt" OR p."updatedAt" < p."createdAt"
            OR greatest(p."createdAt", p."publishedAt", p."updatedAt") > $1::timestamptz`,
        [`${AS_OF}T00:00:00Z`],
      ),
    ).toEqual([]);
  });

  it('keeps categories within the shop’s, reviews with ratings, and sales figures consistent with each other', async () => {
    expect(
      await offenders(
        `SELECT p.id FROM products p JOIN shops s ON s.id = p."shopId"
         WHERE NOT p."categoryIds" <@ s."categoryIds" OR cardinality(p."categoryIds") = 0
            OR (p."reviewCount" = 0) <> (p.rating IS NULL) OR p.rating NOT BETWEEN 1 AND 5 OR p."reviewCount" < 0
            OR abs(p."monthlyRevenueUsd" - p."monthlyUnitsSold" * p."priceUsd"::float8) > 0.01
            OR abs(p."dailyRevenueUsd" - p."monthlyRevenueUsd" / 30) > 0.006 OR abs(p."dailyUnitsSold" - p."monthlyUnitsSold" / 30.0) > 0.006
            OR p."dailyRevenueMinUsd" > p."dailyRevenueUsd" OR p."dailyRevenueMaxUsd" < p."dailyRevenueUsd" OR p."dailyRevenueMinUsd" < 0`,
      ),
    ).toEqual([]);
    // Heavy tails: catalogue sizes and revenues.
    const { medianSize, maxSize, medianRevenue, topRevenue } = await one(
      `SELECT (SELECT percentile_disc(0.5) WITHIN GROUP (ORDER BY "productsCount") FROM shops)::float8 AS "medianSize",
              (SELECT max("productsCount") FROM shops)::float8 AS "maxSize",
              percentile_disc(0.5) WITHIN GROUP (ORDER BY "monthlyRevenueUsd") AS "medianRevenue",
              percentile_disc(0.99) WITHIN GROUP (ORDER BY "monthlyRevenueUsd") AS "topRevenue"
       FROM products`,
    );
    expect(maxSize).toBeGreaterThan(10 * medianSize);
    expect(topRevenue).toBeGreaterThan(20 * medianRevenue);
    // Busier shops carry larger catalogues.
    const { correlation } = await one(`SELECT corr(ln("productsCount"), ln("monthlyVisits")) AS correlation FROM shops`);
    expect(correlation).toBeGreaterThan(0.2);
  });

  it('orders the ad figures and leaves products without ads at zero', async () => {
    expect(
      await offenders(
        `SELECT id FROM products
         WHERE "activeAds" > "totalAds" OR "adsLaunched7d" > "adsLaunched14d" OR "adsLaunched14d" > "adsLaunched30d" OR "adsLaunched30d" > "totalAds"
            OR least("activeAds", "adsLaunched7d") < 0
            OR ("totalAds" > 0 AND ("advertisersCount" < 1 OR cardinality("sellingCountries") = 0 OR "mainSellingCountry" IS NULL
                                    OR cardinality("previewUrls") NOT BETWEEN 1 AND 3 OR "hasPartnershipAds" <> ("advertisersCount" > 1)))
            OR ("totalAds" = 0 AND ("advertisersCount" <> 0 OR "activeAds" <> 0 OR "adsLaunched30d" <> 0 OR "adShare" <> 0 OR "hasPartnershipAds"
                                    OR cardinality("previewUrls") <> 0 OR "activeByCountry" <> '[]' OR cardinality("sellingCountries") <> 0
                                    OR "mainSellingCountry" IS NOT NULL OR "weekOverWeekGrowth" IS NOT NULL
                                    OR "euReach" <> 0 OR "euSpendUsd" <> 0 OR "euDailySpendUsd" <> 0 OR "euSpend14dUsd" <> 0 OR "spendShare" <> 0
                                    OR "euReachByCountry" <> '[]'))`,
      ),
    ).toEqual([]);
  });

  it('splits active ads by country and EU reach by EU/UK country, spend being reach at the default CPM', async () => {
    expect(
      await offenders(
        `SELECT p.id FROM products p
         WHERE p."activeAds" <> coalesce((SELECT sum((e->>'activeAds')::int) FROM jsonb_array_elements(p."activeByCountry") e), 0)
            OR EXISTS (SELECT 1 FROM jsonb_array_elements(p."activeByCountry") e WHERE (e->>'activeAds')::int < 1 OR NOT (e->>'countryCode') = ANY (p."sellingCountries"))
            OR (jsonb_array_length(p."activeByCountry") > 0 AND p."mainSellingCountry" <> p."activeByCountry"->0->>'countryCode')
            OR p."euReach" <> coalesce((SELECT sum((e->>'reach')::bigint) FROM jsonb_array_elements(p."euReachByCountry") e), 0)
            OR EXISTS (SELECT 1 FROM jsonb_array_elements(p."euReachByCountry") e WHERE NOT (e->>'countryCode') = ANY ($1::text[]) OR NOT (e->>'countryCode') = ANY (p."sellingCountries"))
            OR abs(p."euSpendUsd" - p."euReach" * $2 / 1000.0) > 0.006 OR p."euSpend14dUsd" > p."euSpendUsd" OR p."euDailySpendUsd" * 7 > p."euSpend14dUsd" + 0.05`,
        [[...EU_UK], EU_CPM_USD],
      ),
    ).toEqual([]);
    // Shares of the shop's active ads and EU spend add up to 100 % per shop.
    expect(
      await offenders(
        `SELECT "shopId", sum("adShare"), sum("spendShare") FROM products GROUP BY 1
         HAVING (sum("activeAds") > 0 AND abs(sum("adShare") - 100) > 1) OR (sum("euSpendUsd") > 0 AND abs(sum("spendShare") - 100) > 1)`,
      ),
    ).toEqual([]);
    const { eu } = await one(`SELECT avg(("euReach" > 0)::int)::float8 AS eu FROM products WHERE "totalAds" > 0`);
    expect(eu).toBeGreaterThan(0.3);
  });

  it('keeps 13 Monday-to-Sunday weeks for advertised products only, the last one holding asOf and today’s figures', async () => {
    expect(
      await offenders(
        `SELECT p.id, count(w."weekStart") FROM products p LEFT JOIN product_weeks w ON w."productId" = p.id
         GROUP BY p.id HAVING count(w."weekStart") <> CASE WHEN p."totalAds" > 0 THEN $1 ELSE 0 END`,
        [PRODUCT_WEEKS],
      ),
    ).toEqual([]);
    expect(
      await offenders(
        `SELECT "productId", "weekStart" FROM product_weeks
         WHERE extract(isodow FROM "weekStart") <> 1 OR "weekEnd" <> "weekStart" + 6 OR "weekStart" < $1::date - 7 * $2
            OR "weekStart" > $1::date OR "activeAds" < 0 OR "euDailyReach" < 0 OR abs("euDailySpendUsd" - "euDailyReach" * $3 / 1000.0) > 0.006`,
        [AS_OF, PRODUCT_WEEKS, EU_CPM_USD],
      ),
    ).toEqual([]);
    expect(
      await offenders(
        `SELECT p.id FROM products p JOIN product_weeks w ON w."productId" = p.id
         GROUP BY p.id
         HAVING max(w."weekEnd") < $1::date OR max(w."weekStart") > $1::date OR max(w."activeAds") > max(p."totalAds")
             OR max(w."activeAds") FILTER (WHERE w."weekStart" <= $1::date AND w."weekEnd" >= $1::date) <> max(p."activeAds")
             OR max(w."euDailySpendUsd") FILTER (WHERE w."weekEnd" >= $1::date) <> max(p."euDailySpendUsd")
             OR sum(7 * w."euDailyReach") <> max(p."euReach")`,
        [AS_OF],
      ),
    ).toEqual([]);
  });

  it('lists variants and images in position order, the first variant at the product price and the first image (a drawn design the server serves) as its image', async () => {
    expect(
      await offenders(
        `SELECT "productId" FROM product_variants GROUP BY 1 HAVING min(position) <> 1 OR max(position) <> count(*) OR count(DISTINCT position) <> count(*)
         UNION ALL
         SELECT "productId" FROM product_images GROUP BY 1 HAVING min(position) <> 1 OR max(position) <> count(*) OR count(DISTINCT position) <> count(*)`,
      ),
    ).toEqual([]);
    expect(
      await offenders(
        `SELECT p.id FROM products p
         JOIN product_variants v ON v."productId" = p.id AND v.position = 1
         JOIN product_images i ON i."productId" = p.id AND i.position = 1
         WHERE v.price <> p.price OR v."compareAtPrice" IS DISTINCT FROM p."compareAtPrice" OR i.src <> p."imageUrl"
            OR i.src !~ '^/media/products/[0-9]+\\.jpg$'`,
      ),
    ).toEqual([]);
    // Each variant takes one value per option name ("Default Title" for a product without options), its title joining them.
    expect(
      await offenders(
        `SELECT v."productId", v."shopifyId" FROM product_variants v JOIN products p ON p.id = v."productId"
         WHERE v.title <> concat_ws(' / ', v.option1, v.option2, v.option3)
            OR cardinality(p."optionNames") <> (v.option1 IS NOT NULL)::int + (v.option2 IS NOT NULL)::int + (v.option3 IS NOT NULL)::int
            OR (p."optionNames" = '{Title}') <> (v.option1 = 'Default Title')
            OR v.price < p.price OR (v."compareAtPrice" IS NOT NULL AND v."compareAtPrice" <= v.price)
            OR v."shopifyId" !~ '^[1-9][0-9]{13}$'`,
      ),
    ).toEqual([]);
    expect(await offenders(`SELECT "productId", title FROM product_variants GROUP BY 1, 2 HAVING count(*) > 1`)).toEqual([]);
  });
});
