import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIG_SPENDER_REACH30D, RISING_STAR_REACH30D } from '../../src/data/market/snapshots.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { sqlProbe } from '../support/sql.js';
import { TINY_MARKET_42 } from '../support/tiny-market.js';

// Landing pages, the ads' video lengths, partner pages and rank movers, and the pages' type, audience and
// spender segment in the synthetic market.

const AS_OF = '2025-06-01';

let db: TestDatabase;

const { offenders, one } = sqlProbe(() => db);

beforeAll(async () => {
  db = await createTestDatabase({ market: TINY_MARKET_42 });
});

afterAll(async () => {
  await db?.dispose();
});

describe('landing pages', () => {
  it('gives every ad with a landing URL the landing page of that exact URL, and no page goes unused', async () => {
    const { pages, ads, linked } = await one(
      `SELECT (SELECT count(*) FROM landing_pages)::int AS pages, count(*)::int AS ads, count("landingPageId")::int AS linked FROM ads`,
    );
    expect(pages).toBeGreaterThan(500);
    expect(linked).toBeGreaterThan(ads * 0.8);
    expect(
      await offenders(
        `SELECT a.id, a."landingPageUrl", p.url FROM ads a LEFT JOIN landing_pages p ON p.id = a."landingPageId"
         WHERE (a."landingPageUrl" IS NULL) <> (a."landingPageId" IS NULL) OR p.url IS DISTINCT FROM a."landingPageUrl"
            OR p.domain IS DISTINCT FROM a."landingPageDomain"`,
      ),
    ).toEqual([]);
    expect(await offenders(`SELECT id FROM landing_pages p WHERE NOT EXISTS (SELECT 1 FROM ads a WHERE a."landingPageId" = p.id)`)).toEqual([]);
  });

  it('normalizes URLs: no query, fragment or trailing slash; lowercase host without www', async () => {
    const stripped = `rtrim(split_part(split_part(url, '#', 1), '?', 1), '/')`;
    expect(
      await offenders(
        `SELECT url, "normalizedUrl", domain FROM landing_pages
         WHERE "normalizedUrl" <> substring(${stripped} FROM '^[a-z]+://') || regexp_replace(lower(substring(${stripped} FROM '^[a-z]+://([^/]+)')), '^www\\.', '')
                                  || coalesce(substring(${stripped} FROM '^[a-z]+://[^/]+(/.*)$'), '')
            OR domain <> regexp_replace(lower(substring(url FROM '^[a-z]+://([^/?#]+)')), '^www\\.', '')`,
      ),
    ).toEqual([]);
    // Some ads link tagged or slash-ended forms, which share their page's normalized URL.
    const { tagged } = await one(`SELECT avg((url <> "normalizedUrl")::int)::float8 AS tagged FROM landing_pages`);
    expect(tagged).toBeGreaterThan(0.1);
    expect(tagged).toBeLessThan(0.6);
  });

  it('belongs to the shop of its domain and is first seen with its earliest ad', async () => {
    expect(
      await offenders(
        `SELECT p.id, p.domain, s.domain AS shop FROM landing_pages p LEFT JOIN shops s ON s.id = p."shopId"
         WHERE s.domain IS DISTINCT FROM p.domain AND (s.id IS NOT NULL OR EXISTS (SELECT 1 FROM shops x WHERE x.domain = p.domain))`,
      ),
    ).toEqual([]);
    expect(
      await offenders(
        `SELECT p.id FROM landing_pages p JOIN ads a ON a."landingPageId" = p.id
         GROUP BY p.id HAVING p."firstSeenAt" IS DISTINCT FROM min(a."firstSeenAt")`,
      ),
    ).toEqual([]);
  });

  it("has screenshots among the server's own media for most pages", async () => {
    expect(
      await offenders(
        `SELECT id FROM landing_pages WHERE ("screenshotDesktopUrl" IS NULL) <> ("screenshotMobileUrl" IS NULL)
           OR ("screenshotHeadUrl" IS NOT NULL AND "screenshotDesktopUrl" IS NULL)
           OR "screenshotDesktopUrl" <> '/media/landing-pages/' || id || '/desktop.jpg' OR "screenshotMobileUrl" <> '/media/landing-pages/' || id || '/mobile.jpg'
           OR "screenshotHeadUrl" <> '/media/landing-pages/' || id || '/head.jpg'`,
      ),
    ).toEqual([]);
    const { shown } = await one(`SELECT avg(("screenshotDesktopUrl" IS NOT NULL)::int)::float8 AS shown FROM landing_pages`);
    expect(shown).toBeGreaterThan(0.8);
    expect(shown).toBeLessThan(0.97);
  });

  it('lists 2 to 6 technologies per page, one storefront platform, the same on every form of a page', async () => {
    expect(
      await offenders(
        `SELECT p.id, count(t."technologyId") AS n FROM landing_pages p LEFT JOIN landing_page_technologies t ON t."landingPageId" = p.id
         GROUP BY p.id HAVING count(t."technologyId") NOT BETWEEN 2 AND 6`,
      ),
    ).toEqual([]);
    const platforms = `'shopify', 'woocommerce', 'wordpress', 'wix', 'squarespace', 'magento', 'prestashop', 'bigcommerce', 'shopline', 'shoplazza', 'odoo', 'webflow', 'clickfunnels', 'funnelish', 'checkoutchamp'`;
    expect(
      await offenders(
        `SELECT t."landingPageId" FROM landing_page_technologies t JOIN technologies x ON x.id = t."technologyId"
         GROUP BY 1 HAVING count(*) FILTER (WHERE x.slug IN (${platforms})) <> 1`,
      ),
    ).toEqual([]);
    expect(
      await offenders(
        `SELECT "normalizedUrl" FROM (
           SELECT p."normalizedUrl", p.id, string_agg(t."technologyId"::text, ',' ORDER BY t."technologyId") AS stack
           FROM landing_pages p JOIN landing_page_technologies t ON t."landingPageId" = p.id GROUP BY 1, 2) s
         GROUP BY 1 HAVING count(DISTINCT stack) > 1`,
      ),
    ).toEqual([]);
  });

  it("puts Shopify shops' pages on Shopify, with page builders only there", async () => {
    const slugs = `(SELECT array_agg(x.slug) FROM landing_page_technologies t JOIN technologies x ON x.id = t."technologyId" WHERE t."landingPageId" = p.id)`;
    // A shop's platform, when its profile lists technologies, is its pages' platform.
    expect(
      await offenders(
        `SELECT p.id FROM landing_pages p
         WHERE EXISTS (SELECT 1 FROM shop_technologies st JOIN technologies x ON x.id = st."technologyId"
                       WHERE st."shopId" = p."shopId" AND x.slug = 'shopify')
           AND NOT ${slugs} @> ARRAY['shopify']`,
      ),
    ).toEqual([]);
    expect(
      await offenders(
        `SELECT p.id FROM landing_pages p
         WHERE ${slugs} && ARRAY['pagefly', 'gempages', 'zipify-pages', 'shogun', 'replo']::text[] AND NOT ${slugs} @> ARRAY['shopify']`,
      ),
    ).toEqual([]);
    // Otherwise a page shows what its shop runs.
    expect(
      await offenders(
        `SELECT t."landingPageId", x.slug FROM landing_page_technologies t JOIN landing_pages p ON p.id = t."landingPageId"
           JOIN technologies x ON x.id = t."technologyId"
         WHERE EXISTS (SELECT 1 FROM shop_technologies st WHERE st."shopId" = p."shopId")
           AND NOT EXISTS (SELECT 1 FROM shop_technologies st WHERE st."shopId" = p."shopId" AND st."technologyId" = t."technologyId")
           AND x.slug NOT IN ('pagefly', 'gempages', 'zipify-pages', 'shogun', 'replo')`,
      ),
    ).toEqual([]);
    const { shopify, builders } = await one(
      `SELECT avg(('shopify' = ANY (s))::int)::float8 AS shopify,
              avg((s && ARRAY['pagefly', 'gempages', 'zipify-pages']::text[])::int)::float8 AS builders
       FROM (SELECT array_agg(x.slug) AS s FROM landing_page_technologies t JOIN technologies x ON x.id = t."technologyId" GROUP BY t."landingPageId") g`,
    );
    expect(shopify).toBeGreaterThan(0.5);
    expect(builders).toBeGreaterThan(0.05);
    expect(builders).toBeLessThan(0.5);
  });
});

describe('ad details', () => {
  it('gives video ads a length of 5 s to 3 min, shared by duplicates and covering the transcript', async () => {
    expect(
      await offenders(
        `SELECT id, "mediaType", "videoDurationSec" FROM ads
         WHERE ("mediaType" = 'video') <> ("videoDurationSec" IS NOT NULL) OR "videoDurationSec" NOT BETWEEN 5 AND 180`,
      ),
    ).toEqual([]);
    expect(await offenders(`SELECT "collationId" FROM ads GROUP BY 1 HAVING count(DISTINCT "videoDurationSec") > 1`)).toEqual([]);
    expect(
      await offenders(
        `SELECT a.id FROM ads a JOIN ad_transcripts t ON t."adId" = a.id
         WHERE a."videoDurationSec" < (SELECT max((s->>'end')::float8) FROM jsonb_array_elements(t.segments) s)`,
      ),
    ).toEqual([]);
    const { median } = await one(`SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY "videoDurationSec") AS median FROM ads`);
    expect(median).toBeGreaterThan(15);
    expect(median).toBeLessThan(60);
  });

  it('names another, existing page as the partner of partnership ads only', async () => {
    expect(
      await offenders(
        `SELECT a.id FROM ads a LEFT JOIN advertisers p ON p.id = a."partnerPageId"
         WHERE a."hasPartnerBadge" <> (a."partnerPageId" IS NOT NULL) OR (a."partnerPageId" IS NOT NULL AND p.id IS NULL)
            OR a."partnerPageId" = a."advertiserId" OR a."partnerPageName" IS DISTINCT FROM p.name`,
      ),
    ).toEqual([]);
    const { creators, partnered } = await one(
      `SELECT avg((p."pageType" = 'influencer')::int)::float8 AS creators, count(*)::int AS partnered
       FROM ads a JOIN advertisers p ON p.id = a."partnerPageId"`,
    );
    expect(partnered).toBeGreaterThan(30);
    expect(creators).toBeGreaterThan(0.6);
  });

  it('stores rank movers and the best rank from the daily ranks', async () => {
    const rank = (days: number) => `(SELECT rank FROM ad_reach_days d WHERE d."adId" = a.id AND d.date = $1::date - ${days})`;
    expect(
      await offenders(
        `SELECT id, "rankDelta7d", "rankDelta14d", "rankDelta30d", "bestRank", s.* FROM ads a,
           LATERAL (SELECT ${rank(0)} AS r0, ${rank(7)} AS r7, ${rank(14)} AS r14, ${rank(30)} AS r30,
                           (SELECT min(rank) FROM ad_reach_days d WHERE d."adId" = a.id) AS best) s
         WHERE "rankDelta7d" IS DISTINCT FROM r7 - r0 OR "rankDelta14d" IS DISTINCT FROM r14 - r0
            OR "rankDelta30d" IS DISTINCT FROM r30 - r0 OR "bestRank" IS DISTINCT FROM best`,
        [AS_OF],
      ),
    ).toEqual([]);
    const { movers, climbers } = await one(
      `SELECT count("rankDelta7d")::int AS movers, count(*) FILTER (WHERE "rankDelta7d" > 0)::int AS climbers FROM ads`,
    );
    expect(movers).toBeGreaterThan(200);
    expect(climbers).toBeGreaterThan(0);
  });
});

describe('advertiser profiles', () => {
  it('types pages as brands or (about 12%) influencers, with a description', async () => {
    expect(await offenders(`SELECT id FROM advertisers WHERE "pageType" NOT IN ('brand', 'influencer') OR about IS NULL OR length(about) < 10`)).toEqual([]);
    const { creators, smallCreators, bigCreators } = await one(
      `SELECT avg(("pageType" = 'influencer')::int)::float8 AS creators,
              avg(("pageType" = 'influencer')::int) FILTER (WHERE n <= 2)::float8 AS "smallCreators",
              avg(("pageType" = 'influencer')::int) FILTER (WHERE n > 10)::float8 AS "bigCreators"
       FROM advertisers p JOIN (SELECT "advertiserId", count(*) AS n FROM ads GROUP BY 1) a ON a."advertiserId" = p.id`,
    );
    expect(creators).toBeGreaterThan(0.07);
    expect(creators).toBeLessThan(0.18);
    expect(smallCreators).toBeGreaterThan(bigCreators);
  });

  it("leans the audience to the gender at least 30% of the page's ads target", async () => {
    expect(
      await offenders(
        `SELECT p.id, p."audienceGender", s.* FROM advertisers p JOIN (
           SELECT "advertiserId", count(*) FILTER (WHERE gender = 'women') AS women, count(*) FILTER (WHERE gender = 'men') AS men, count(*) AS n
           FROM ads GROUP BY 1) s ON s."advertiserId" = p.id
         WHERE p."audienceGender" <> CASE WHEN women > men AND women >= 0.3 * n THEN 'female'
                                          WHEN men > women AND men >= 0.3 * n THEN 'male' ELSE 'all' END`,
      ),
    ).toEqual([]);
  });

  it('labels the top pages by 30-day reach big spenders and fast growers rising stars', async () => {
    expect(
      await offenders(
        `WITH last7 AS (
           SELECT "advertiserId", sum("totalImpressions") AS reach FROM advertiser_metric_days WHERE date > $1::date - 7 GROUP BY 1)
         SELECT p.id, p."spenderSegment", p."reach30d", l.reach FROM advertisers p JOIN last7 l ON l."advertiserId" = p.id
         WHERE p."spenderSegment" IS DISTINCT FROM CASE
           WHEN p."reach30d" >= $2 THEN 'big-spender'
           WHEN p."reach30d" >= $3 AND 2 * l.reach >= p."reach30d" THEN 'rising-star' END`,
        [AS_OF, BIG_SPENDER_REACH30D, RISING_STAR_REACH30D],
      ),
    ).toEqual([]);
    const { big, rising, below } = await one(
      `SELECT avg(("spenderSegment" IS NOT DISTINCT FROM 'big-spender')::int)::float8 AS big,
              avg(("spenderSegment" IS NOT DISTINCT FROM 'rising-star')::int)::float8 AS rising,
              (SELECT max("reach30d") FROM advertisers WHERE "spenderSegment" IS DISTINCT FROM 'big-spender')
                < (SELECT min("reach30d") FROM advertisers WHERE "spenderSegment" = 'big-spender') AS below
       FROM advertisers`,
    );
    expect(below).toBe(true);
    expect(big).toBeGreaterThan(0.02);
    expect(big).toBeLessThan(0.1);
    expect(rising).toBeGreaterThan(0.01);
    expect(rising).toBeLessThan(0.12);
  });
});
