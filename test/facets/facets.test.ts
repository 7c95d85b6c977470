import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.js';
import { expectViolation } from '../support/assertions.js';
import { idsOf } from '../support/discovery-helpers.js';
import { statementsOf } from '../support/statements.js';
import {
  APP_JUDGE, APP_KLAVIYO, discoveryScenario, P_GLOW, P_PEAK, PIXEL_META, PIXEL_TIKTOK, TECH_GA, TECH_SHOPIFY, TECH_WOO, THEME_DAWN, THEME_IMPULSE,
} from '../support/discovery-scenario.js';
import { keyPaths } from '../support/shapes.js';

// GET /v1/facets/* on the discovery scenario. Usage (shops using each value): categories 1 each but 166 (0);
// Klaviyo 2, Judge.me 1; Shopify 3, Google Analytics 1, WooCommerce 1; Meta Pixel 2, TikTok Pixel 1; Dawn 2, Impulse 1.

let t: TestApp;
let key: string;
beforeAll(async () => {
  t = await createTestApp(discoveryScenario);
  ({ apiKey: key } = await t.newKey());
});
afterAll(() => t?.close());

const facet = (name: string, query = '') => t.rest('GET', `/facets/${name}${query}`, { key });
const byId = (resource: string, fields: string[]) => ({ resource, fields, valueField: 'id' });

const EXPECTED = {
  categories: {
    data: [
      { id: 469, name: 'Health & Beauty', path: 'Health & Beauty', parentId: null, usageCount: 1 },
      { id: 473, name: 'Cosmetics', path: 'Health & Beauty > Personal Care > Cosmetics', parentId: 2915, usageCount: 1 },
      { id: 988, name: 'Sporting Goods', path: 'Sporting Goods', parentId: null, usageCount: 1 },
      { id: 990, name: 'Exercise & Fitness', path: 'Sporting Goods > Exercise & Fitness', parentId: 988, usageCount: 1 },
      { id: 1604, name: 'Clothing', path: 'Apparel & Accessories > Clothing', parentId: 166, usageCount: 1 },
      { id: 2915, name: 'Personal Care', path: 'Health & Beauty > Personal Care', parentId: 469, usageCount: 1 },
      { id: 166, name: 'Apparel & Accessories', path: 'Apparel & Accessories', parentId: null, usageCount: 0 },
    ],
    meta: { valueType: 'number', filterUsage: [byId('shops', ['categoryIds']), byId('ads', ['categoryIds']), byId('emails', ['categoryIds']), byId('advertisers', ['categoryIds', 'pageNiches'])] },
  },
  'shopify-apps': {
    data: [
      { id: APP_KLAVIYO, label: 'Klaviyo: Email Marketing & SMS', iconUrl: 'http://api.test/media/facets/apps/klaviyo.png', shopifyUrl: 'https://apps.shopify.com/klaviyo', usageCount: 2 },
      { id: APP_JUDGE, label: 'Judge.me Product Reviews', iconUrl: null, shopifyUrl: 'https://apps.shopify.com/judge-me', usageCount: 1 },
    ],
    meta: { valueType: 'number', filterUsage: [byId('shops', ['shopifyAppIds', 'excludeShopifyAppIds']), byId('ads', ['shopifyApps', 'excludeShopifyApps'])] },
  },
  technologies: {
    data: [
      { slug: 'shopify', id: TECH_SHOPIFY, name: 'Shopify', iconUrl: 'http://api.test/media/facets/technologies/shopify.png', categories: ['Ecommerce'], usageCount: 3 },
      { slug: 'google-analytics', id: TECH_GA, name: 'Google Analytics', iconUrl: null, categories: ['Analytics'], usageCount: 1 },
      { slug: 'woocommerce', id: TECH_WOO, name: 'WooCommerce', iconUrl: null, categories: ['Ecommerce', 'WordPress plugins'], usageCount: 1 },
    ],
    meta: {
      valueType: 'slug',
      filterUsage: ['emails', 'advertisers'].map((resource) => ({ resource, fields: ['technologies'], valueField: 'slug' })),
    },
  },
  pixels: {
    data: [
      { id: PIXEL_META, slug: 'meta-pixel', name: 'Meta Pixel', iconUrl: 'http://api.test/media/facets/pixels/meta-pixel.png', categories: ['Advertising'], usageCount: 2 },
      { id: PIXEL_TIKTOK, slug: 'tiktok-pixel', name: 'TikTok Pixel', iconUrl: null, categories: ['Advertising'], usageCount: 1 },
    ],
    meta: { valueType: 'uuid', filterUsage: [byId('shops', ['pixelIds', 'excludePixelIds']), byId('ads', ['pixels', 'excludePixels'])] },
  },
  themes: {
    data: [{ id: THEME_DAWN, name: 'Dawn', usageCount: 2 }, { id: THEME_IMPULSE, name: 'Impulse', usageCount: 1 }],
    meta: { valueType: 'uuid', filterUsage: [byId('shops', ['themeIds']), byId('ads', ['themes'])] },
  },
} as const;

describe('the five facet lists', () => {
  it.each(Object.entries(EXPECTED))('%s: values most used first, usage counts, pagination and meta', async (name, expected) => {
    const res = await facet(name);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.length).toBeGreaterThan(0);
    expect(res.body).toEqual({ requestId: res.body.requestId, data: expected.data, pagination: { limit: 100, offset: 0, total: expected.data.length }, meta: expected.meta });
    expect(Object.keys(res.body)).toEqual(['requestId', 'data', 'pagination', 'meta']);
    expect(keyPaths(res.body.data)).toEqual(keyPaths([expected.data[0]]));
  });

  it('search matches inside any label, case-insensitive, and counts what it matches', async () => {
    const care = await facet('categories', '?search=CARE');
    expect(idsOf<number>(care)).toEqual([473, 2915]);
    expect(care.body.pagination.total).toBe(2);
    expect(idsOf<number>(await facet('categories', '?search=beauty'))).toEqual([469, 473, 2915]);
    expect(idsOf<number>(await facet('shopify-apps', '?search=judge-me'))).toEqual([APP_JUDGE]);
    expect(idsOf(await facet('technologies', '?search=Commerce'), 'slug')).toEqual(['woocommerce']);
    expect(idsOf(await facet('pixels', '?search=tik'))).toEqual([PIXEL_TIKTOK]);
    expect(idsOf(await facet('themes', '?search=imp'))).toEqual([THEME_IMPULSE]);
    expect(idsOf(await facet('themes', '?search=%25'))).toEqual([]);
    expect(idsOf(await facet('categories', '?search=_'))).toEqual([]);
  });

  it('limit and offset page through the list', async () => {
    const page = await facet('categories', '?limit=2&offset=1');
    expect(idsOf<number>(page)).toEqual([473, 988]);
    expect(page.body.pagination).toEqual({ limit: 2, offset: 1, total: 7 });
    const past = await facet('categories', '?offset=50');
    expect(past.body.data).toEqual([]);
    expect(past.body.pagination.total).toBe(7);
  });

  it('bad parameters are a 400 naming the parameter', async () => {
    for (const name of Object.keys(EXPECTED)) {
      expectViolation(await facet(name, '?limit=0'), 'query-string.limit');
      expectViolation(await facet(name, '?limit=501'), 'query-string.limit', ['limit must not be greater than 500']);
      expectViolation(await facet(name, '?offset=-1'), 'query-string.offset');
      expectViolation(await facet(name, `?search=${'a'.repeat(201)}`), 'query-string.search');
    }
  });

  it('REST and GraphQL return the same values; two statements whatever the limit', async () => {
    const rest = await facet('technologies', '?search=o&limit=2');
    const gql = await t.graphql(
      '{ technologyFacets(search: "o", limit: 2) { data { slug id name iconUrl categories usageCount } pagination { limit offset total } meta { valueType filterUsage { resource fields valueField } } } }',
      undefined,
      key,
    );
    expect(gql.body.errors).toBeUndefined();
    const { requestId: _requestId, ...body } = rest.body;
    expect(gql.body.data.technologyFacets).toEqual(body);
    await facet('themes', '?limit=1');
    const one = await statementsOf(() => facet('themes', '?limit=1'));
    const two = await statementsOf(() => facet('themes', '?limit=2'));
    expect(one.statements.length).toBe(2);
    expect(two.statements.length).toBe(2);
  });
});

describe('every facet value is accepted by the filters its filterUsage names', () => {
  const adIds = async (body: Record<string, unknown>) => idsOf(await t.rest('POST', '/ads/query', { key, body: { ...body, sortBy: 'newest', limit: 100 } })).sort();
  const advertiserIds = async (body: Record<string, unknown>) => idsOf(await t.rest('POST', '/advertisers/query', { key, body })).sort();
  const GLOW_ADS = ['facebook_101', 'facebook_102', 'facebook_103', 'facebook_104'];
  const PEAK_ADS = ['facebook_301', 'facebook_302'];
  const ALL_ADS = [...GLOW_ADS, 'facebook_201', ...PEAK_ADS, 'facebook_401'].sort();

  /** Per facet and filter field (resource.field): the value taken from the facet list and what the filter must return. */
  const cases: Record<string, Record<string, (value: never) => Promise<void>>> = {
    categories: {
      'ads.categoryIds': async (id: number) => expect(await adIds({ categoryIds: [id] })).toEqual(GLOW_ADS),
      'advertisers.categoryIds': async (id: number) => expect(await advertiserIds({ categoryIds: [id] })).toEqual([P_GLOW]),
      'advertisers.pageNiches': async (id: number) => expect(await advertiserIds({ pageNiches: { main: [id] } })).toEqual([P_GLOW]),
    },
    'shopify-apps': {
      'ads.shopifyApps': async (id: number) => expect(await adIds({ shopifyApps: [id] })).toEqual([...GLOW_ADS, ...PEAK_ADS].sort()),
      'ads.excludeShopifyApps': async (id: number) => expect(await adIds({ excludeShopifyApps: [id] })).toEqual(['facebook_201', 'facebook_401']),
    },
    technologies: {
      'advertisers.technologies': async (slug: string) => expect(await advertiserIds({ technologies: [slug] })).toEqual([P_GLOW, P_PEAK]),
    },
    pixels: {
      'ads.pixels': async (id: string) => expect(await adIds({ pixels: [id] })).toEqual([...GLOW_ADS, ...PEAK_ADS].sort()),
      'ads.excludePixels': async (id: string) => expect(await adIds({ excludePixels: [id] })).toEqual(ALL_ADS.filter((ad) => !GLOW_ADS.includes(ad) && !PEAK_ADS.includes(ad))),
    },
    themes: {
      'ads.themes': async (id: string) => expect(await adIds({ themes: [id] })).toEqual(GLOW_ADS),
    },
  };

  it.each(Object.keys(cases))('%s', async (name) => {
    const res = await facet(name);
    const first = res.body.data[0];
    const routed = res.body.meta.filterUsage.filter((usage: { resource: string }) => usage.resource === 'ads' || usage.resource === 'advertisers');
    const fields = routed.flatMap((usage: { resource: string; fields: string[] }) => usage.fields.map((field) => `${usage.resource}.${field}`));
    // Every routed filter the facet names has a case here, and runs with the facet's first (most used) value.
    expect(fields.sort()).toEqual(Object.keys(cases[name]).sort());
    for (const usage of routed) {
      for (const field of usage.fields) await cases[name][`${usage.resource}.${field}`](first[usage.valueField] as never);
    }
  });

  it('without a facet filter every ad is there (the filters narrow)', async () => {
    expect(await adIds({})).toEqual(ALL_ADS);
  });

  it('malformed facet values are a 400 naming the field', async () => {
    expectViolation(await t.rest('POST', '/ads/query', { key, body: { themes: ['dawn'] } }), 'body.themes');
    expectViolation(await t.rest('POST', '/ads/query', { key, body: { excludePixels: ['x'] } }), 'body.excludePixels');
    expectViolation(await t.rest('POST', '/ads/query', { key, body: { shopifyApps: [1.5] } }), 'body.shopifyApps');
  });
});
