import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.js';
import { expectViolation, graphqlData, withoutRequestId } from '../support/assertions.js';

// Issue #33: POST /v1/emails/query's filters on the sending shop (default language, markets and visitor countries,
// email frequency, traffic and ads growth, Trustpilot), on the demo market: each returns exactly the emails whose
// shop satisfies it (read from the shops, from GET /v1/shops/{shopId}/emails/stats, or from POST /v1/shops/query
// with the same growth conditions), which are some of the emails but not all; a bad value is a 400 naming it.

type Shop = {
  id: string;
  defaultLanguage: string | null;
  mainMarket: string | null;
  trustpilotRating: number | null;
  trustpilotReviews: number | null;
  trafficGrowth90d: number | null;
  countries: string[];
};
type Email = { id: number; shopId: string | null };

let t: TestApp;
let key: string;
let market: Email[];
const shops = new Map<string, Shop>();

beforeAll(async () => {
  t = await createTestApp(undefined, { market: { scale: 'tiny', seed: 42 } });
  key = (await t.newKey()).apiKey;
  market = await t.db.prisma.$queryRaw<Email[]>`SELECT "id", "shopId"::text AS "shopId" FROM "emails" ORDER BY "id"`;
  const rows = await t.db.prisma.$queryRaw<Shop[]>`
    SELECT s."id"::text AS "id", s."defaultLanguage", s."mainMarket", s."trustpilotRating", s."trustpilotReviews", s."trafficGrowth90d",
      ARRAY(SELECT c."countryCode" FROM "shop_traffic_countries" c WHERE c."shopId" = s."id") AS "countries"
    FROM "shops" s WHERE s."id" IN (SELECT "shopId" FROM "emails")`;
  for (const shop of rows) shops.set(shop.id, shop);
});
afterAll(() => t?.close());

/** Every email a body selects (all pages), by id. */
async function emailIds(body: Record<string, unknown>): Promise<number[]> {
  const ids: number[] = [];
  for (let page = 1; ; page++) {
    const res = await t.rest('POST', '/emails/query', { key, body: { ...body, sortBy: 'oldest', limit: 100, page } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    ids.push(...res.body.data.map((email: { id: number }) => email.id));
    if (res.body.data.length < 100) return ids.sort((a, b) => a - b);
  }
}

/** The emails whose shop passes `test`: what a filter must return, checked to be some of the emails but not all. */
function sentBy(test: (shop: Shop) => boolean): number[] {
  const ids = market.filter((email) => email.shopId !== null && test(shops.get(email.shopId)!)).map((email) => email.id);
  expect(ids.length).toBeGreaterThan(0);
  expect(ids.length).toBeLessThan(market.length);
  return ids;
}

/** The value most of the sending shops have (but not all of them: sentBy checks). */
function mostCommon(values: (string | null)[]): string {
  const counts = new Map<string, number>();
  for (const value of values) if (value !== null) counts.set(value, (counts.get(value) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]![0];
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const senders = () => [...shops.values()];

describe('POST /v1/emails/query: filters on the sending shop (issue #33)', () => {
  it("shopDefaultLanguages: the shop's storefront language, by code or English name", async () => {
    const language = mostCommon(senders().map((shop) => shop.defaultLanguage));
    const expected = sentBy((shop) => shop.defaultLanguage === language);
    expect(await emailIds({ shopDefaultLanguages: [language] })).toEqual(expected);
    const name = new Intl.DisplayNames(['en'], { type: 'language' }).of(language)!;
    expect(await emailIds({ shopDefaultLanguages: [name.toUpperCase()] })).toEqual(expected);
  });

  it('mainMarketCountries: the country most visitors come from', async () => {
    const country = mostCommon(senders().map((shop) => shop.mainMarket));
    expect(await emailIds({ mainMarketCountries: [country] })).toEqual(sentBy((shop) => shop.mainMarket === country));
  });

  it('amongMarketCountries, visitorCountries and excludeMarketCountries: the visitor countries', async () => {
    const first = mostCommon(senders().flatMap((shop) => shop.countries));
    const other = mostCommon(senders().flatMap((shop) => shop.countries.filter((country) => country !== first)));
    const among = sentBy((shop) => shop.countries.includes(first));
    expect(await emailIds({ amongMarketCountries: [first] })).toEqual(among);
    expect(await emailIds({ visitorCountries: [first] })).toEqual(among);
    expect(await emailIds({ amongMarketCountries: [first, other] })).toEqual(sentBy((shop) => shop.countries.includes(first) || shop.countries.includes(other)));
    expect(await emailIds({ amongMarketCountries: [first], visitorCountries: [other] })).toEqual(
      sentBy((shop) => shop.countries.includes(first) && shop.countries.includes(other)),
    );
    expect(await emailIds({ excludeMarketCountries: [first] })).toEqual(sentBy((shop) => !shop.countries.includes(first)));
  });

  it('min/maxTrustpilotRating and min/maxTrustpilotReviewCount', async () => {
    const rated = senders().filter((shop) => shop.trustpilotRating !== null);
    const rating = median(rated.map((shop) => shop.trustpilotRating!));
    const reviews = median(rated.map((shop) => shop.trustpilotReviews!));
    expect(await emailIds({ minTrustpilotRating: rating })).toEqual(sentBy((shop) => shop.trustpilotRating !== null && shop.trustpilotRating >= rating));
    expect(await emailIds({ maxTrustpilotRating: rating })).toEqual(sentBy((shop) => shop.trustpilotRating !== null && shop.trustpilotRating <= rating));
    expect(await emailIds({ minTrustpilotReviewCount: reviews })).toEqual(sentBy((shop) => shop.trustpilotReviews !== null && shop.trustpilotReviews >= reviews));
    expect(await emailIds({ maxTrustpilotReviewCount: reviews })).toEqual(sentBy((shop) => shop.trustpilotReviews !== null && shop.trustpilotReviews <= reviews));
  });

  it("min/maxAvgEmailsPerWeek: the shop's avgEmailsPerWeek as GET /v1/shops/{shopId}/emails/stats reports it", async () => {
    const month = new Date().toISOString().slice(0, 7);
    const averages = new Map<string, number>();
    for (const id of shops.keys()) {
      const res = await t.rest('GET', `/shops/${id}/emails/stats?month=${month}`, { key });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      averages.set(id, res.body.data.last90Days.avgEmailsPerWeek);
    }
    const typical = median([...averages.values()].filter((avg) => avg > 0));
    const avg = (shop: Shop) => averages.get(shop.id)!;
    expect(await emailIds({ minAvgEmailsPerWeek: typical })).toEqual(sentBy((shop) => avg(shop) >= typical));
    expect(await emailIds({ maxAvgEmailsPerWeek: typical })).toEqual(sentBy((shop) => avg(shop) <= typical));
    expect(await emailIds({ minAvgEmailsPerWeek: 0.08, maxAvgEmailsPerWeek: typical + 0.005 })).toEqual(sentBy((shop) => avg(shop) >= 0.08 && avg(shop) <= typical + 0.005));
    // A shop that sent nothing in the 90 days averages 0.
    expect(await emailIds({ maxAvgEmailsPerWeek: 0 })).toEqual(sentBy((shop) => avg(shop) === 0));
    expect(await emailIds({ minAvgEmailsPerWeek: 0 })).toEqual(market.map((email) => email.id));
  });

  it('trafficGrowth and adsGrowth: the conditions of POST /v1/shops/query, on the sending shop', async () => {
    const growth = median(senders().flatMap((shop) => (shop.trafficGrowth90d === null ? [] : [Math.round(shop.trafficGrowth90d * 1000) / 10])));
    const traffic = [{ period: 'last90d', comparison: 'greater', value: growth }];
    expect(await emailIds({ trafficGrowth: traffic })).toEqual(sentBy((shop) => shop.trafficGrowth90d !== null && shop.trafficGrowth90d * 100 >= growth));
    for (const conditions of [{ trafficGrowth: traffic }, { adsGrowth: [{ period: 'last90d', comparison: 'greater', value: 0 }] }, {
      adsGrowth: [{ period: 'last30d', comparison: 'lower', value: -50, operator: 'or' }, { period: 'last90d', comparison: 'greater', value: 100 }],
    }]) {
      const found = new Set<string>();
      for (let offset = 0; ; offset += 100) {
        const res = await t.rest('POST', '/shops/query', { key, body: { ...conditions, limit: 100, offset } });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        for (const shop of res.body.data as { id: string }[]) found.add(shop.id);
        if (res.body.data.length < 100) break;
      }
      expect(await emailIds(conditions), JSON.stringify(conditions)).toEqual(sentBy((shop) => found.has(shop.id)));
    }
  });

  it('combines with the other filters, the same on both surfaces', async () => {
    const language = mostCommon(senders().map((shop) => shop.defaultLanguage));
    const country = mostCommon(senders().flatMap((shop) => shop.countries));
    const body = { shopDefaultLanguages: [language], amongMarketCountries: [country], minTrustpilotRating: 1, maxAvgEmailsPerWeek: 20, adsGrowth: [{ period: 'last90d', comparison: 'greater', value: -100 }] };
    const rest = await t.rest('POST', '/emails/query', { key, body: { ...body, limit: 50 } });
    expect(rest.status, JSON.stringify(rest.body)).toBe(200);
    expect(rest.body.data.length).toBeGreaterThan(0);
    const data = await graphqlData(
      t,
      key,
      `query ($languages: [String!], $countries: [String!], $growth: [AdsGrowthCondition!]) {
        emailsQuery(shopDefaultLanguages: $languages, amongMarketCountries: $countries, minTrustpilotRating: 1, maxAvgEmailsPerWeek: 20, adsGrowth: $growth, limit: 50) {
          data { id } pagination { total } } }`,
      { languages: body.shopDefaultLanguages, countries: body.amongMarketCountries, growth: body.adsGrowth },
    );
    expect(data.emailsQuery.data.map((email: { id: number }) => email.id)).toEqual(rest.body.data.map((email: { id: number }) => email.id));
    expect(data.emailsQuery.pagination.total).toBe(rest.body.pagination.total);
  });

  it('answers as before when the new fields are null (null is not sent)', async () => {
    const none = {
      shopDefaultLanguages: null, mainMarketCountries: null, amongMarketCountries: null, excludeMarketCountries: null, visitorCountries: null,
      minAvgEmailsPerWeek: null, maxAvgEmailsPerWeek: null, trafficGrowth: null, adsGrowth: null,
      minTrustpilotRating: null, maxTrustpilotRating: null, minTrustpilotReviewCount: null, maxTrustpilotReviewCount: null,
    };
    const [plain, nulls] = await Promise.all([t.rest('POST', '/emails/query', { key, body: {} }), t.rest('POST', '/emails/query', { key, body: none })]);
    expect(plain.status).toBe(200);
    expect(withoutRequestId(nulls.body)).toEqual(withoutRequestId(plain.body));
  });

  it('answers a bad value with a 400 naming the field', async () => {
    const query = (body: unknown) => t.rest('POST', '/emails/query', { key, body });
    expectViolation(await query({ shopDefaultLanguages: ['Klingonese'] }), 'body.shopDefaultLanguages');
    expectViolation(await query({ mainMarketCountries: ['XX'] }), 'body.mainMarketCountries');
    expectViolation(await query({ amongMarketCountries: ['Atlantis'] }), 'body.amongMarketCountries');
    expectViolation(await query({ excludeMarketCountries: ['ZZ'] }), 'body.excludeMarketCountries');
    expectViolation(await query({ visitorCountries: ['USA'] }), 'body.visitorCountries');
    expectViolation(await query({ minAvgEmailsPerWeek: -1 }), 'body.minAvgEmailsPerWeek');
    expectViolation(await query({ maxAvgEmailsPerWeek: 2_000_000 }), 'body.maxAvgEmailsPerWeek');
    expectViolation(await query({ minTrustpilotRating: 5.5 }), 'body.minTrustpilotRating');
    expectViolation(await query({ maxTrustpilotRating: -0.1 }), 'body.maxTrustpilotRating');
    expectViolation(await query({ minTrustpilotReviewCount: 1.5 }), 'body.minTrustpilotReviewCount');
    expectViolation(await query({ maxTrustpilotReviewCount: -3 }), 'body.maxTrustpilotReviewCount');
    // The reference types the growth filters as a string (a rule language it does not describe): refused, by name.
    expectViolation(await query({ trafficGrowth: 'last30d>10' }), 'body.trafficGrowth');
    expectViolation(await query({ adsGrowth: 'last7d>0' }), 'body.adsGrowth');
    expectViolation(await query({ trafficGrowth: [{ period: 'last7d', comparison: 'greater', value: 10 }] }), 'body.trafficGrowth');
    expectViolation(await query({ adsGrowth: [{ period: 'last180d', comparison: 'greater', value: 10 }] }), 'body.adsGrowth');
    expectViolation(await query({ adsGrowth: [{ period: 'last7d', comparison: 'more', value: 10 }] }), 'body.adsGrowth');
  });
});
