import type { InputShapeFromFields } from '@pothos/core';
import { z } from 'zod';
import { builder } from '../builder.js';
import { countries } from '../shared/countries.js';
import { cursorArgs } from '../shared/list.js';
import { SortOrder } from '../shared/enums.js';
import { amount, count, percent } from '../shared/ranges.js';
import { endOfDay } from '../shared/time.js';
import { DEFAULT_CPM } from './figures.js';
import { defaultOrder, type ProductFilter, type ProductSort, type ProductSortBy } from './service/search.js';

// The arguments of GET /v1/products and POST /v1/products/query, their validation, and their translation into
// the list engine's filter and sort.

export const SORTS = ['relevance', 'best-selling', 'newest', 'est-sales', 'active-ads', 'ad-pressure', 'spend', 'spend-14d'] as const;
const PERIODS = ['7d', '14d', '30d', 'all'] as const;
const oneOf = (values: readonly string[]) => `{name} must be one of the following values: ${values.join(', ')}`;

const ProductSearchField = builder.enumType('ProductSearchField', { values: ['productName', 'description', 'shopName'] as const });
const SellingCountriesBasis = builder.enumType('SellingCountriesBasis', {
  values: ['adCount', 'reach'] as const,
  description: 'adCount: countries the product’s ads run in; reach: countries its EU/UK ads reach.',
});

const INT_MAX = 2_147_483_647;
const uuids = z.array(z.uuid({ message: '{name} must be UUIDs' })).max(100);
const currency = z
  .string()
  .transform((code) => code.trim().toUpperCase())
  .refine((code) => /^[A-Z]{3}$/.test(code) && (Intl.supportedValuesOf('currency') as string[]).includes(code), '{name} must be ISO 4217 currency codes');
const dateField = (t: Parameters<Parameters<typeof builder.args>[0]>[0], description: string) => t.field({ type: 'Date', description });

/** `query` with its syntax: `a + b` all words, `a / b` any word, `-c` excludes. */
const queryText = z
  .string()
  .max(200)
  .refine((text) => /[\p{L}\p{N}]/u.test(text), '{name} must contain at least one word');

/** The arguments both routes take. */
const baseArgs = () =>
  builder.args((t) => ({
    query: t.string({ description: 'Words in product names (≤ 200): `a + b` all words, `a / b` any word, `-c` excludes.', validate: queryText }),
    sortBy: t.string({ description: `${SORTS.join(', ')} (default best-selling; relevance ranks a query's matches by title, and falls back to best-selling without one; spend and spend-14d need a Pro plan).`, validate: z.enum(SORTS, { message: oneOf(SORTS) }) }),
    order: t.field({ type: SortOrder, description: 'Default asc for best-selling, desc otherwise; missing values come last either way.' }),
    shopId: t.string({ description: "One shop's products.", validate: z.uuid({ message: '{name} must be a UUID' }) }),
    ...cursorArgs({ defaultLimit: 25, maxLimit: 100 }),
  }));

const RANGES = {
  AdsLaunched: count, Price: amount, Rating: z.number().min(0).max(5), ReviewCount: count, BestSellerRank: z.number().int().min(1).max(100),
  MonthlyRevenue: amount, MonthlyUnitsSold: count, ActiveAds: count, AdShare: percent, EuAdSpend: amount, SpendShare: percent,
  ShopMonthlyVisits: count, ShopTrafficGrowth30d: z.number().min(-100).max(1e6), ShopProductsCount: count,
} as const;
type RangeName = keyof typeof RANGES;
const INT_RANGES: ReadonlySet<RangeName> = new Set(['AdsLaunched', 'ReviewCount', 'BestSellerRank', 'MonthlyUnitsSold', 'ActiveAds', 'ShopMonthlyVisits', 'ShopProductsCount']);
const RANGE_NOTES: Partial<Record<RangeName, string>> = {
  Price: 'USD; once set, products priced 0 are left out.', BestSellerRank: 'Best-seller percentile within the shop, 1..100 (100 = its best seller).',
  MonthlyRevenue: 'USD.', AdShare: "Percent of the shop's active ads.", EuAdSpend: 'USD at the request cpm (Pro).', SpendShare: "Percent of the shop's EU spend (Pro).",
  ShopTrafficGrowth30d: 'Percent, from -100.', AdsLaunched: 'Ads launched in adsLaunchedPeriod (required with these bounds).',
};

export const productsQueryArgs = () =>
  builder.args((t) => ({
    ...baseArgs(),
    searchFields: t.field({ type: [ProductSearchField], description: 'Where `query` looks (default productName).', validate: z.array(z.string()).max(3) }),
    cpm: t.float({ description: 'USD per 1,000 EU reach for EU spend figures and filters (0.01..1000, default 9).', validate: z.number().min(0.01).max(1000) }),
    subscription: t.string({ description: 'subscription or one-time.', validate: z.enum(['subscription', 'one-time'], { message: oneOf(['subscription', 'one-time']) }) }),
    publishedAfter: dateField(t, 'Published on or after this date.'),
    publishedBefore: dateField(t, 'Published on or before this date.'),
    promoTypes: t.stringList({ description: 'Promotions; only percent-off matches products today.', validate: z.array(z.string().min(1).max(50)).max(20) }),
    currencies: t.stringList({ description: 'ISO 4217 storefront currencies.', validate: z.array(currency).max(50) }),
    shopCountries: t.stringList({ description: 'Where the shop is based (ISO 3166-1 alpha-2).', validate: countries }),
    sellingCountries: t.stringList({ description: 'Countries the product sells in (see sellingCountriesBasis).', validate: countries }),
    mainSellingCountries: t.stringList({ description: 'The country the product sells in most.', validate: countries }),
    excludeSellingCountries: t.stringList({ validate: countries }),
    shopVisitorCountries: t.stringList({ description: "Among the shop's visitor countries.", validate: countries }),
    sellingCountriesBasis: t.field({ type: SellingCountriesBasis, defaultValue: 'adCount' }),
    categoryIds: t.intList({ description: 'Google product taxonomy ids.', validate: z.array(z.number().int().min(1).max(INT_MAX)).max(50) }),
    shopCreatedAfter: dateField(t, 'Shop created on or after this date.'),
    shopCreatedBefore: dateField(t, 'Shop created on or before this date.'),
    pixelIds: t.stringList({ description: 'Pixel facet ids (uuid): shops with any of them.', validate: uuids }),
    shopifyAppIds: t.intList({ description: 'Shopify app facet ids: shops with any of them.', validate: z.array(z.number().int().min(1).max(INT_MAX)).max(100) }),
    themeIds: t.stringList({ description: 'Theme facet ids (uuid).', validate: uuids }),
    adsLaunchedPeriod: t.string({ description: '7d, 14d, 30d or all: the window of minAdsLaunched/maxAdsLaunched (required with them).', validate: z.enum(PERIODS, { message: oneOf(PERIODS) }) }),
    partnership: t.boolean({ description: 'true: products with partnership ads; false: without.' }),
    ...Object.fromEntries(
      (Object.keys(RANGES) as RangeName[]).flatMap((name) => {
        const validate = RANGES[name];
        const make = () => (INT_RANGES.has(name) ? t.int({ description: RANGE_NOTES[name], validate }) : t.float({ description: RANGE_NOTES[name], validate }));
        return [[`min${name}`, make()], [`max${name}`, make()]];
      }),
    ) as Record<`min${RangeName}` | `max${RangeName}`, ReturnType<typeof t.float>>,
  }));

type RangeArgs = Partial<Record<`min${RangeName}` | `max${RangeName}`, number | null>>;

/** Rules across arguments: a min above its max, launched bounds without their period. */
export const crossChecks = z.looseObject({}).superRefine((raw, ctx) => {
  const args = raw as RangeArgs & { adsLaunchedPeriod?: string | null };
  for (const name of Object.keys(RANGES) as RangeName[]) {
    const min = args[`min${name}`];
    const max = args[`max${name}`];
    if (min != null && max != null && min > max) ctx.addIssue({ code: 'custom', path: [`max${name}`], message: `{name} must not be less than min${name}` });
  }
  if ((args.minAdsLaunched != null || args.maxAdsLaunched != null) && args.adsLaunchedPeriod == null) {
    ctx.addIssue({ code: 'custom', path: ['adsLaunchedPeriod'], message: '{name} is required with minAdsLaunched or maxAdsLaunched (7d, 14d, 30d or all)' });
  }
});

export const productsListArgs = baseArgs;

type QueryArgs = InputShapeFromFields<ReturnType<typeof productsQueryArgs>>;
type ListArgs = InputShapeFromFields<ReturnType<typeof baseArgs>>;

/**
 * `a + b / c -d`: `+` (or a space) joins words that must all appear, `/` separates alternatives (any of them), and
 * a `-word` excludes products with that word, whatever the alternatives: (a AND b) OR c, then NOT d.
 */
export function parseProductQuery(query: string): { websearch: string; exclude: string[] } {
  const tokens = query.replace(/([+/])/g, ' $1 ').split(/\s+/).filter(Boolean);
  const exclude = tokens.filter((token) => token.length > 1 && token.startsWith('-')).map((token) => token.slice(1));
  const websearch = tokens
    .filter((token) => !(token.length > 1 && token.startsWith('-')))
    .map((token) => (token === '+' ? '' : token === '/' ? 'or' : token.replace(/^-+$/, '')))
    .filter(Boolean)
    .join(' ');
  return { websearch, exclude };
}

const bounds = (args: RangeArgs, name: RangeName) => ({ min: args[`min${name}`] ?? null, max: args[`max${name}`] ?? null });

/** The EU/UK fields a request uses (Pro only). */
export function euFieldsUsed(args: RangeArgs & { sortBy?: string | null }): string[] {
  const used: string[] = [];
  for (const name of ['EuAdSpend', 'SpendShare'] as const) for (const side of ['min', 'max'] as const) if (args[`${side}${name}`] != null) used.push(`${side}${name}`);
  if (args.sortBy === 'spend' || args.sortBy === 'spend-14d') used.push(`sortBy ${args.sortBy}`);
  return used;
}

export function filterFromArgs(args: Partial<QueryArgs> & ListArgs): { filter: ProductFilter; sort: ProductSort } {
  const a = args as Partial<QueryArgs> & RangeArgs;
  const search = a.query ? { ...parseProductQuery(a.query), fields: a.searchFields?.length ? [...new Set(a.searchFields)] : ['productName' as const] } : null;
  const filter: ProductFilter = {
    search,
    shopId: a.shopId,
    cpm: a.cpm ?? DEFAULT_CPM,
    subscription: a.subscription as ProductFilter['subscription'],
    published: { min: a.publishedAfter, max: endOfDay(a.publishedBefore) },
    promoTypes: a.promoTypes,
    currencies: a.currencies,
    shopCountries: a.shopCountries,
    sellingCountries: a.sellingCountries,
    mainSellingCountries: a.mainSellingCountries,
    excludeSellingCountries: a.excludeSellingCountries,
    shopVisitorCountries: a.shopVisitorCountries,
    sellingCountriesBasis: a.sellingCountriesBasis ?? 'adCount',
    categoryIds: a.categoryIds,
    shopCreated: { min: a.shopCreatedAfter, max: endOfDay(a.shopCreatedBefore) },
    pixelIds: a.pixelIds,
    shopifyAppIds: a.shopifyAppIds,
    themeIds: a.themeIds,
    adsLaunched: a.adsLaunchedPeriod ? { ...bounds(a, 'AdsLaunched'), period: a.adsLaunchedPeriod as '7d' } : undefined,
    partnership: a.partnership,
    priceUsd: bounds(a, 'Price'),
    rating: bounds(a, 'Rating'),
    reviewCount: bounds(a, 'ReviewCount'),
    bestSellerRank: bounds(a, 'BestSellerRank'),
    monthlyRevenueUsd: bounds(a, 'MonthlyRevenue'),
    monthlyUnitsSold: bounds(a, 'MonthlyUnitsSold'),
    activeAds: bounds(a, 'ActiveAds'),
    adShare: bounds(a, 'AdShare'),
    euAdSpendUsd: bounds(a, 'EuAdSpend'),
    spendShare: bounds(a, 'SpendShare'),
    shopMonthlyVisits: bounds(a, 'ShopMonthlyVisits'),
    shopTrafficGrowth30d: bounds(a, 'ShopTrafficGrowth30d'),
    shopProductsCount: bounds(a, 'ShopProductsCount'),
  };
  const sortBy = (a.sortBy ?? 'best-selling') as ProductSortBy;
  return { filter, sort: { sortBy, order: a.order ?? defaultOrder(sortBy, search !== null) } };
}
