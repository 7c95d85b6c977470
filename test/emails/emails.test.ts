import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.js';
import { daysAgo, GLOW, LAB, shopsScenario } from '../shops/scenario.js';
import { EMAIL_SUMMARY } from '../shops/shapes.js';
import { idsOf } from '../shops/support.js';
import { expectNotFound, expectViolation } from '../support/assertions.js';
import { keyPaths } from '../support/shapes.js';
import { statementsOf, withStatements } from '../support/statements.js';

// The email routes against the scenario's four emails:
//   501  GLOW, 2 days ago, campaign, en, "Black Friday: 30% off every serum", Percent off, Promotional, Black Friday, has HTML
//   502  GLOW, 10 days ago, flow, sv, "Welcome to Nordic Glow", Lifecycle, Welcome
//   503  GLOW, 200 days ago, campaign, en, "Spring newsletter", Free shipping, Promotional
//   504  LAB, 4 days ago, campaign, en, "Free shipping weekend", Free shipping, Promotional, from news@mail.glowlab.com

let t: TestApp;
let key: string;
beforeAll(async () => {
  t = await createTestApp(shopsScenario);
  ({ apiKey: key } = await t.newKey());
});
afterAll(() => t?.close());

const get = (path: string) => t.rest('GET', path, { key });
const query = (body: unknown) => t.rest('POST', '/emails/query', { key, body });
const ymd = (date: Date) => date.toISOString().slice(0, 10);

describe('POST /v1/emails/query', () => {
  it('lists email summaries newest first in the page envelope, with the summary keys', async () => {
    const res = await query({});
    expect(idsOf(res)).toEqual([501, 504, 502, 503]);
    expect(res.body.pagination).toEqual({ page: 1, limit: 25, total: 4, totalPages: 1 });
    const first = res.body.data[0];
    expect(Object.keys(first)).toEqual(Object.keys(EMAIL_SUMMARY));
    expect(keyPaths(first)).toEqual(keyPaths(EMAIL_SUMMARY));
    expect(first.classification).toEqual({ promotionType: 'Percent off', promotionTypeId: 1, category: 'Promotional', categoryId: 1, event: { name: 'Black Friday', id: 1, category: 'Holiday' } });
    expect(first.content).toEqual({ subject: 'Black Friday: 30% off every serum', preheader: 'Ends Monday', bodyPreview: 'Our biggest sale of the year. 30% off every serum until Monday.', bodyLength: 63, screenshotUrl: null });
    expect(first.shop).toEqual({ id: GLOW, domain: 'nordicglow.com', name: 'Nordic Glow' });
    expect(idsOf(await query({ page: 2, limit: 3 }))).toEqual([503]);
  });

  it('searches keywords (any or all), domains and sender addresses', async () => {
    expect(idsOf(await query({ search: ['serum'] }))).toEqual([501, 503]);
    expect(idsOf(await query({ search: ['serum', 'welcome'], sortBy: 'newest' }))).toEqual([501, 502, 503]);
    expect(idsOf(await query({ search: ['serum', 'spring'], keywordMode: 'all' }))).toEqual([503]);
    expect(idsOf(await query({ search: ['glowlab.com'], searchType: 'domain' }))).toEqual([504]);
    expect(idsOf(await query({ search: ['https://www.nordicglow.com/pages/about'], searchType: 'domain' }))).toEqual([501, 502, 503]);
    expect(idsOf(await query({ search: ['NEWS@mail.glowlab.com'], searchType: 'email' }))).toEqual([504]);
    expect(idsOf(await query({ search: ['glowlab'], searchType: 'email' }))).toEqual([]);
  });

  it('filters by dates, campaign, language, classification, shops and shop figures', async () => {
    expect(idsOf(await query({ sentAfter: ymd(daysAgo(10)), sentBefore: ymd(daysAgo(4)) }))).toEqual([504, 502]);
    expect(idsOf(await query({ campaignTypes: ['FLOW'] }))).toEqual([502]);
    expect(idsOf(await query({ languages: ['Swedish'] }))).toEqual([502]);
    expect(idsOf(await query({ promotionTypes: ['free shipping'] }))).toEqual([504, 503]);
    expect(idsOf(await query({ promotionTypeIds: [1] }))).toEqual([501]);
    expect(idsOf(await query({ categories: ['Lifecycle'] }))).toEqual([502]);
    expect(idsOf(await query({ emailCategoryIds: [1], eventNames: ['black friday'] }))).toEqual([501]);
    expect(idsOf(await query({ eventIds: [2] }))).toEqual([502]);
    expect(idsOf(await query({ eventCategories: ['Holiday'] }))).toEqual([501]);
    expect(idsOf(await query({ minBodyLength: 60 }))).toEqual([501, 503]);
    expect(idsOf(await query({ shopIds: [LAB] }))).toEqual([504]);
    expect(idsOf(await query({ minMonthlyVisits: 30000 }))).toEqual([501, 502, 503]);
    expect(idsOf(await query({ shopifyPlan: 'plus' }))).toEqual([501, 502, 503]);
    expect(idsOf(await query({ shopifyPlan: 'nonPlus' }))).toEqual([504]);
    expect(idsOf(await query({ categoryIds: [2] }))).toEqual([501, 502, 503]);
    expect(idsOf(await query({ currencies: ['EUR'] }))).toEqual([504]);
    expect(idsOf(await query({ minShopEmails90d: 2 }))).toEqual([501, 502, 503]);
    expect(idsOf(await query({ minActiveAds: 1 }))).toEqual([501, 502, 503]);
    expect(idsOf(await query({ technologies: ['klaviyo'] }))).toEqual([501, 502, 503]);
    expect(idsOf(await query({ minProductsCount: 100 }))).toEqual([501, 502, 503]);
    expect(idsOf(await query({ shopCreatedAfter: '2023-01-01' }))).toEqual([504]);
    expect(idsOf(await query({ creationCountries: ['FR'] }))).toEqual([]);
    expect(idsOf(await query({ excludeCreationCountries: ['FR'], shopCreatedBefore: '2022-12-31' }))).toEqual([501, 502, 503]);
    // A keyword search with a shop's figure: the list joins the shops only when it reads them (src/schema/emails/service/search.ts).
    expect(idsOf(await query({ search: ['serum'], sortBy: 'relevance', minProductsCount: 100 }))).toEqual([501, 503]);
    expect(idsOf(await query({ search: ['serum'], sortBy: 'monthlyVisits' }))).toEqual([501, 503]);
  });

  it('sorts by the eight discovery keys', async () => {
    expect(idsOf(await query({ sortBy: 'oldest' }))).toEqual([503, 502, 504, 501]);
    expect(idsOf(await query({ sortBy: 'bodyLength' }))).toEqual([503, 501, 504, 502]);
    expect(idsOf(await query({ sortBy: 'monthlyVisits' }))).toEqual([501, 502, 503, 504]);
    expect(idsOf(await query({ sortBy: 'shopEmailFrequency' }))).toEqual([501, 502, 503, 504]);
    expect(idsOf(await query({ sortBy: 'event' }))).toEqual([501, 502, 504, 503]);
    expect(idsOf(await query({ sortBy: 'promotionType', order: 'desc' }))).toEqual([501, 504, 503, 502]);
    expect(idsOf(await query({ search: ['serum', 'free'], sortBy: 'relevance' })).sort()).toEqual([501, 503, 504]);
  });

  it('answers bad bodies with a 400 naming the field', async () => {
    expectViolation(await query({ searchType: 'subject' }), 'body.searchType');
    expectViolation(await query({ sortBy: 'opens' }), 'body.sortBy');
    expectViolation(await query({ limit: 101 }), 'body.limit');
    expectViolation(await query({ page: 0 }), 'body.page');
    expectViolation(await query({ shopIds: ['nordicglow'] }), 'body.shopIds');
    expectViolation(await query({ shopifyPlan: 'basic' }), 'body.shopifyPlan');
    expectViolation(await query({ sentAfter: 'last week' }), 'body.sentAfter');
    expectViolation(await query({ minBodyLength: -1 }), 'body.minBodyLength');
  });

  it('runs a constant number of statements whatever the page size', async () => {
    await query({ limit: 1 });
    const one = await statementsOf(() => query({ search: ['serum', 'free'], limit: 1 }));
    const three = await statementsOf(() => query({ search: ['serum', 'free'], limit: 3 }));
    expect(idsOf(three.res)).toHaveLength(3);
    expect(one.statements.length).toBeGreaterThan(0);
    expect(three.statements).toHaveLength(one.statements.length);
    expect(one.statements.length).toBeLessThanOrEqual(3);
  });

  it("reads no email's HTML for a list (only GET /v1/emails/{emailId}/html does)", async () => {
    const [res, statements] = await withStatements(() => query({ search: ['serum', 'free'], limit: 3 }));
    expect(idsOf(res)).toHaveLength(3);
    // The page's rows come from the summary's JSON statement (src/schema/emails/service/load.ts), not from Prisma, and a
    // keyword search brings them in the statement that finds the page: one statement reads emails.
    const reads = statements.filter((sql) => /"emails"/.test(sql));
    expect(reads).toHaveLength(1);
    expect(reads[0]).toMatch(/WITH page AS MATERIALIZED/);
    expect(reads[0]).toMatch(/json_agg/);
    expect(statements.some((sql) => /FROM "public"\."(emails|shops)"/.test(sql))).toBe(false);
    expect(statements.filter((sql) => /"html"/.test(sql))).toEqual([]);
  });
});

describe('GET /v1/emails/{emailId} and /html', () => {
  it('answers the detail with body, language and the fuller shop', async () => {
    const res = await get('/emails/502');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(Object.keys(res.body.data)).toEqual(['id', 'sentAt', 'campaignType', 'classification', 'content', 'shop', 'language']);
    expect(res.body.data.language).toBe('sv');
    expect(res.body.data.content.body).toBe('Thanks for joining. Here is your welcome gift.');
    const shop = res.body.data.shop;
    expect(Object.keys(shop)).toEqual(['id', 'domain', 'name', 'createdAt', 'profile', 'traffic', 'catalog', 'marketing', 'technology', 'trustpilot', 'analytics']);
    expect(shop.marketing).toEqual({ activeAds: 2, linkedAdvertisersCount: 1, hasTikTok: true });
    expect(shop.analytics.emails90d).toBe(2);
    expect(shop.technology.theme).toBe('Dawn');
  });

  it('serves the raw HTML as data, null where none was captured', async () => {
    const html = '<html><body><h1>Black Friday</h1></body></html>';
    expect((await get('/emails/501/html')).body.data).toEqual({ emailId: 501, html, htmlLength: html.length });
    expect((await get('/emails/502/html')).body.data).toEqual({ emailId: 502, html: null, htmlLength: 0 });
  });

  it('answers 404 for an unknown or malformed id', async () => {
    for (const path of ['/emails/999', '/emails/abc', '/emails/99999999999', '/emails/999/html']) expectNotFound(await get(path));
  });
});

describe('GET /v1/shops/{shopId}/emails and /stats', () => {
  it("lists a shop's emails with its filters", async () => {
    const res = await get(`/shops/${GLOW}/emails`);
    expect(idsOf(res)).toEqual([501, 502, 503]);
    expect(res.body.pagination).toEqual({ page: 1, limit: 25, total: 3, totalPages: 1 });
    expect(idsOf(await get(`/shops/${GLOW}/emails?search=serum&sortBy=oldest`))).toEqual([503, 501]);
    expect(idsOf(await get(`/shops/${GLOW}/emails?campaignTypes=flow,campaign&languages=sv`))).toEqual([502]);
    expect(idsOf(await get(`/shops/${GLOW}/emails?limit=1&page=2`))).toEqual([502]);
    expectNotFound(await get('/shops/5b0e0000-0000-4000-8000-00000000ffff/emails'));
    expectViolation(await get(`/shops/${GLOW}/emails?sortBy=monthlyVisits`), 'query-string.sortBy');
  });

  it('counts the last 90 days by weekday and the month by date (UTC)', async () => {
    const recent = [daysAgo(2, 9), daysAgo(10, 9)];
    const month = ymd(recent[0]).slice(0, 7);
    const res = await get(`/shops/${GLOW}/emails/stats?month=${month}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const byDay = { '0': 0, '1': 0, '2': 0, '3': 0, '4': 0, '5': 0, '6': 0 } as Record<string, number>;
    for (const date of recent) byDay[String(date.getUTCDay())] += 1;
    expect(res.body.data.last90Days).toEqual({ totalEmails: 2, avgEmailsPerWeek: Math.round((2 / (90 / 7)) * 100) / 100, emailsByDayOfWeek: byDay });
    const inMonth = recent.filter((date) => ymd(date).startsWith(month)).map(ymd);
    expect(res.body.data.calendar).toEqual({ month, totalEmails: inMonth.length, emailsByDate: Object.fromEntries(inMonth.map((date) => [date, inMonth.filter((d) => d === date).length])) });
    const old = ymd(daysAgo(200, 9));
    expect((await get(`/shops/${GLOW}/emails/stats?month=${old.slice(0, 7)}`)).body.data.calendar).toEqual({ month: old.slice(0, 7), totalEmails: 1, emailsByDate: { [old]: 1 } });
    expectViolation(await get(`/shops/${GLOW}/emails/stats`), 'query-string.month');
    expectViolation(await get(`/shops/${GLOW}/emails/stats?month=2026-13`), 'query-string.month');
    expectNotFound(await get('/shops/5b0e0000-0000-4000-8000-00000000ffff/emails/stats?month=2026-11'));
  });

  it('agree on both surfaces', async () => {
    const gql = await t.graphql(`{ emailsQuery(search: ["serum"]) { data { id shop { domain } } pagination { total } }
      shopEmails(shopId: "${GLOW}", limit: 2) { data { id } } emailHtml(emailId: "501") { htmlLength } }`, undefined, key);
    expect(gql.body.errors).toBeUndefined();
    expect(gql.body.data.emailsQuery.data).toEqual([{ id: 501, shop: { domain: 'nordicglow.com' } }, { id: 503, shop: { domain: 'nordicglow.com' } }]);
    expect(gql.body.data.shopEmails.data).toEqual([{ id: 501 }, { id: 502 }]);
    expect(gql.body.data.emailHtml.htmlLength).toBe(47);
  });
});
