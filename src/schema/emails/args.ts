import type { InputShapeFromFields } from '@pothos/core';
import { z } from 'zod';
import { builder } from '../builder.js';
import { languageCode } from '../shared/codes.js';
import { countries } from '../shared/countries.js';
import { KeywordMode, SortOrder } from '../shared/enums.js';
import { count } from '../shared/ranges.js';
import { endOfDay } from '../shared/time.js';
import { pageArgs, searchTerms, termsOf } from '../shared/list.js';
import { growthArgs, trustpilotArgs } from '../shared/shop-filter-args.js';
import { EmailSearchType, EmailSort, ShopEmailSort, ShopifyPlan } from './enums.js';
import type { EmailFilter, EmailSort as Sort } from './service.js';

// Arguments of POST /v1/emails/query and GET /v1/shops/{shopId}/emails, and their translation into the engine's filter.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const CURRENCIES = new Set(Intl.supportedValuesOf('currency'));
export const EMAIL_LIMITS = { defaultLimit: 25, maxLimit: 100 };

const names = z.array(z.string().trim().min(1).max(200)).max(100);
const ids = z.array(z.number().int().min(1).max(2_147_483_647)).max(100);
const languages = z.array(languageCode).max(100);
/** An average per week as a filter bound: at most a million (a count of 90 days stays a small integer). */
const emailsPerWeek = z.number().min(0).max(1_000_000);

const sharedArgs = () =>
  builder.args((t) => ({
    sentAfter: t.field({ type: 'Date', description: 'Sent on or after this date (UTC).' }),
    sentBefore: t.field({ type: 'Date', description: 'Sent on or before this date (UTC).' }),
    campaignTypes: t.stringList({ description: 'Campaign types (campaign, newsletter, transactional, …), case-insensitive.', validate: names }),
    languages: t.stringList({ description: 'Email languages: ISO 639-1 codes or English names.', validate: languages }),
    ...pageArgs(EMAIL_LIMITS),
  }));

export const emailsQueryArgs = () =>
  builder.args((t) => ({
    search: t.stringList({ description: 'Search terms, matched as searchType says and combined by keywordMode.', validate: searchTerms(50) }),
    searchType: t.field({ type: EmailSearchType, defaultValue: 'shopKeywords' }),
    keywordMode: t.field({ type: KeywordMode, defaultValue: 'any' }),
    sortBy: t.field({ type: EmailSort, description: 'Default relevance with shopKeywords terms, newest otherwise.' }),
    order: t.field({ type: SortOrder, description: 'Overrides the sort\'s own direction (newest and the figures desc, oldest and the names asc).' }),
    ...sharedArgs(),
    promotionTypes: t.stringList({ description: 'Promotion type names, case-insensitive.', validate: names }),
    promotionTypeIds: t.intList({ validate: ids }),
    categories: t.stringList({ description: 'Email category names, case-insensitive.', validate: names }),
    emailCategoryIds: t.intList({ validate: ids }),
    eventNames: t.stringList({ description: 'Event names (Black Friday, Welcome, …), case-insensitive.', validate: names }),
    eventIds: t.intList({ validate: ids }),
    eventCategories: t.stringList({ validate: names }),
    minBodyLength: t.int({ validate: count }),
    maxBodyLength: t.int({ validate: count }),
    shopIds: t.stringList({ description: 'Shop ids.', validate: z.array(z.string().regex(UUID, '{name} must be UUIDs')).max(100) }),
    minMonthlyVisits: t.int({ validate: count }),
    maxMonthlyVisits: t.int({ validate: count }),
    minProductsCount: t.int({ validate: count }),
    maxProductsCount: t.int({ validate: count }),
    shopCreatedAfter: t.field({ type: 'Date' }),
    shopCreatedBefore: t.field({ type: 'Date' }),
    minShopEmails90d: t.int({ validate: count }),
    maxShopEmails90d: t.int({ validate: count }),
    minActiveAds: t.int({ description: "Live Meta ads of the shop's pages.", validate: count }),
    maxActiveAds: t.int({ validate: count }),
    shopifyPlan: t.field({ type: ShopifyPlan, defaultValue: 'all' }),
    categoryIds: t.intList({ description: "The shop's Google taxonomy ids (GET /v1/facets/categories).", validate: ids }),
    currencies: t.stringList({ validate: z.array(z.string().transform((c) => c.trim().toUpperCase()).refine((c) => CURRENCIES.has(c), '{name} must be ISO 4217 currency codes')).max(100) }),
    creationCountries: t.stringList({ validate: countries }),
    excludeCreationCountries: t.stringList({ validate: countries }),
    technologies: t.stringList({ description: 'Technology slugs of the shop (GET /v1/facets/technologies).', validate: z.array(z.string().min(1).max(100)).max(100) }),
    shopDefaultLanguages: t.stringList({ description: "The shop's default storefront language: ISO 639-1 codes or English names.", validate: languages }),
    mainMarketCountries: t.stringList({ description: "The country most of the shop's visitors come from.", validate: countries }),
    amongMarketCountries: t.stringList({ description: "Countries among the shop's visitor countries (its markets).", validate: countries }),
    excludeMarketCountries: t.stringList({ description: "None of these among the shop's visitor countries; emails without a shop stay.", validate: countries }),
    visitorCountries: t.stringList({ description: "Countries among the shop's visitor countries, as amongMarketCountries (the same data here); both lists must match when both are sent.", validate: countries }),
    minAvgEmailsPerWeek: t.float({ description: "The shop's avgEmailsPerWeek as GET /v1/shops/{shopId}/emails/stats reports it: emails of the trailing 90 days / (90 / 7).", validate: emailsPerWeek }),
    maxAvgEmailsPerWeek: t.float({ validate: emailsPerWeek }),
    ...growthArgs({
      trafficGrowth: "The shop's traffic growth, in POST /v1/shops/query's conditions ({ period, comparison, value, operator }), not a string.",
      adsGrowth: "The shop's ads first seen in the window against the window before, in POST /v1/shops/query's conditions, not a string.",
    }),
    ...trustpilotArgs(),
  }));

export const shopEmailsArgs = () =>
  builder.args((t) => ({
    search: t.stringList({ description: 'Words of the subject, preheader and body; any of them.', validate: searchTerms(50) }),
    sortBy: t.field({ type: ShopEmailSort, description: 'Default relevance with search terms, newest otherwise.' }),
    ...sharedArgs(),
  }));

type QueryArgs = InputShapeFromFields<ReturnType<typeof emailsQueryArgs>>;
type ShopArgs = InputShapeFromFields<ReturnType<typeof shopEmailsArgs>>;

/** Both routes' arguments as the engine's filter, sort and page (`shopId` scopes the shop's list). */
export function emailFilter(args: QueryArgs | ShopArgs, shopId?: string) {
  const q: Partial<QueryArgs> = shopId ? {} : (args as QueryArgs);
  const terms = termsOf(args.search);
  const type = q.searchType ?? 'shopKeywords';
  const filter: EmailFilter = {
    search: terms.length ? { terms, keywordMode: q.keywordMode ?? 'any', type } : null,
    shopIds: shopId ? [shopId] : q.shopIds?.map((id) => id.toLowerCase()),
    sent: { min: args.sentAfter, max: endOfDay(args.sentBefore) },
    campaignTypes: args.campaignTypes,
    languages: args.languages,
    promotionTypes: q.promotionTypes, promotionTypeIds: q.promotionTypeIds,
    categories: q.categories, emailCategoryIds: q.emailCategoryIds,
    eventNames: q.eventNames, eventIds: q.eventIds, eventCategories: q.eventCategories,
    bodyLength: { min: q.minBodyLength, max: q.maxBodyLength },
    monthlyVisits: { min: q.minMonthlyVisits, max: q.maxMonthlyVisits },
    productsCount: { min: q.minProductsCount, max: q.maxProductsCount },
    shopCreated: { min: q.shopCreatedAfter, max: endOfDay(q.shopCreatedBefore) },
    shopEmails90d: { min: q.minShopEmails90d, max: q.maxShopEmails90d },
    activeAds: { min: q.minActiveAds, max: q.maxActiveAds },
    shopifyPlan: q.shopifyPlan,
    categoryIds: q.categoryIds,
    currencies: q.currencies,
    creationCountries: q.creationCountries, excludeCreationCountries: q.excludeCreationCountries,
    technologies: q.technologies,
    shop: {
      languages: q.shopDefaultLanguages,
      mainMarketCountries: q.mainMarketCountries, marketCountries: q.amongMarketCountries, excludeMarketCountries: q.excludeMarketCountries,
      trafficGrowth: q.trafficGrowth, adsGrowth: q.adsGrowth,
      trustpilotRating: { min: q.minTrustpilotRating, max: q.maxTrustpilotRating },
      trustpilotReviews: { min: q.minTrustpilotReviewCount, max: q.maxTrustpilotReviewCount },
    },
    visitorCountries: q.visitorCountries,
    avgEmailsPerWeek: { min: q.minAvgEmailsPerWeek, max: q.maxAvgEmailsPerWeek },
  };
  const relevant = filter.search?.type === 'shopKeywords';
  const sort: Sort = { sortBy: args.sortBy ?? (relevant ? 'relevance' : 'newest'), order: q.order };
  const page = { page: args.page ?? 1, limit: args.limit ?? EMAIL_LIMITS.defaultLimit };
  return { filter, sort, page };
}
