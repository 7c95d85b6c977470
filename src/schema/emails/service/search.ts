import { Prisma } from '../../../generated/prisma/client.js';
import { hostOf } from '../../shared/codes.js';
import { onDomain } from '../../shared/domains.js';
import { tsQuery, type ListQuery, type OrderKey } from '../../shared/list.js';
import { range, type Range } from '../../shared/ranges.js';
import { shopInCategories, shopUsesTechnologies } from '../../shared/shop-facets.js';
import { activeAdsOf, shopFilterConditions, type ShopFilter } from '../../shops/service.js';
import { avgEmailsPerWeekCondition, LAST_90_DAYS } from './frequency.js';

// The emails list engine: the list (its matches and order) that findPage (shared/list.ts) pages; service.ts runs it.

export type EmailSortValue = 'newest' | 'oldest' | 'relevance' | 'monthlyVisits' | 'bodyLength' | 'shopEmailFrequency' | 'event' | 'promotionType';
export type EmailSearch = { terms: string[]; keywordMode: 'any' | 'all'; type: 'domain' | 'email' | 'shopKeywords' };
export type EmailFilter = {
  search?: EmailSearch | null;
  shopIds?: string[] | null;
  sent?: Range<Date>;
  campaignTypes?: string[] | null;
  languages?: string[] | null;
  promotionTypes?: string[] | null;
  promotionTypeIds?: number[] | null;
  categories?: string[] | null;
  emailCategoryIds?: number[] | null;
  eventNames?: string[] | null;
  eventIds?: number[] | null;
  eventCategories?: string[] | null;
  bodyLength?: Range<number>;
  monthlyVisits?: Range<number>;
  productsCount?: Range<number>;
  shopCreated?: Range<Date>;
  shopEmails90d?: Range<number>;
  activeAds?: Range<number>;
  shopifyPlan?: 'all' | 'plus' | 'nonPlus' | null;
  categoryIds?: number[] | null;
  currencies?: string[] | null;
  creationCountries?: string[] | null;
  excludeCreationCountries?: string[] | null;
  technologies?: string[] | null;
  /** The sending shop's filters that the shops lists have (default languages, markets, growth, Trustpilot). */
  shop?: Pick<ShopFilter, 'languages' | 'mainMarketCountries' | 'marketCountries' | 'excludeMarketCountries' | 'trafficGrowth' | 'adsGrowth' | 'trustpilotRating' | 'trustpilotReviews'>;
  /** Visitor countries of the sending shop, a second list read as the shops lists read marketCountries. */
  visitorCountries?: string[] | null;
  avgEmailsPerWeek?: Range<number>;
};
export type EmailSort = { sortBy: EmailSortValue; order?: 'asc' | 'desc' | null };

const sql = Prisma.sql;
const lower = (values: string[]) => values.map((value) => value.toLowerCase());
const EMAILS_90D = sql`(SELECT count(*) FROM "emails" x WHERE x."shopId" = e."shopId" AND x."sentAt" >= ${LAST_90_DAYS})`;

function searchCondition(search: EmailSearch): Prisma.Sql {
  const anyOrAll = (conditions: Prisma.Sql[]) => sql`(${Prisma.join(conditions, search.keywordMode === 'all' ? ' AND ' : ' OR ')})`;
  switch (search.type) {
    case 'shopKeywords':
      return sql`e."searchText" @@ ${tsQuery({ terms: search.terms, keywordMode: search.keywordMode })}`;
    case 'email':
      return anyOrAll(search.terms.map((term) => sql`lower(e."fromAddress") = ${term.trim().toLowerCase()}`));
    case 'domain':
      return anyOrAll(search.terms.map((term) => sql`(${onDomain(sql`s."domain"`, hostOf(term))} OR lower(split_part(e."fromAddress", '@', 2)) = ${hostOf(term)})`));
  }
}

function conditions(f: EmailFilter): Prisma.Sql[] {
  const out: Prisma.Sql[] = [];
  if (f.search) out.push(searchCondition(f.search));
  if (f.shopIds?.length) out.push(sql`e."shopId" = ANY(${f.shopIds}::uuid[])`);
  range(sql`e."sentAt"`, f.sent, out);
  if (f.campaignTypes?.length) out.push(sql`lower(e."campaignType") = ANY(${lower(f.campaignTypes)}::text[])`);
  if (f.languages?.length) out.push(sql`e."language" = ANY(${f.languages}::text[])`);
  if (f.promotionTypes?.length) out.push(sql`e."promotionTypeId" IN (SELECT "id" FROM "email_promotion_types" WHERE lower("name") = ANY(${lower(f.promotionTypes)}::text[]))`);
  if (f.promotionTypeIds?.length) out.push(sql`e."promotionTypeId" = ANY(${f.promotionTypeIds}::int[])`);
  if (f.categories?.length) out.push(sql`e."categoryId" IN (SELECT "id" FROM "email_categories" WHERE lower("name") = ANY(${lower(f.categories)}::text[]))`);
  if (f.emailCategoryIds?.length) out.push(sql`e."categoryId" = ANY(${f.emailCategoryIds}::int[])`);
  if (f.eventNames?.length) out.push(sql`e."eventId" IN (SELECT "id" FROM "email_events" WHERE lower("name") = ANY(${lower(f.eventNames)}::text[]))`);
  if (f.eventIds?.length) out.push(sql`e."eventId" = ANY(${f.eventIds}::int[])`);
  if (f.eventCategories?.length) out.push(sql`e."eventId" IN (SELECT "id" FROM "email_events" WHERE lower("category") = ANY(${lower(f.eventCategories)}::text[]))`);
  range(sql`e."bodyLength"`, f.bodyLength, out);
  range(sql`s."monthlyVisits"`, f.monthlyVisits, out);
  range(sql`s."productsCount"`, f.productsCount, out);
  range(sql`s."createdAt"`, f.shopCreated, out);
  range(EMAILS_90D, f.shopEmails90d, out);
  if (f.activeAds) range(activeAdsOf('last24h'), f.activeAds, out);
  if (f.shopifyPlan === 'plus') out.push(sql`s."isShopifyPlus"`);
  if (f.shopifyPlan === 'nonPlus') out.push(sql`NOT s."isShopifyPlus"`);
  if (f.categoryIds?.length) out.push(shopInCategories('s', f.categoryIds));
  if (f.currencies?.length) out.push(sql`s."currency" = ANY(${f.currencies}::text[])`);
  if (f.creationCountries?.length) out.push(sql`s."countryCode" = ANY(${f.creationCountries}::text[])`);
  if (f.excludeCreationCountries?.length) out.push(sql`(s."countryCode" IS NULL OR NOT (s."countryCode" = ANY(${f.excludeCreationCountries}::text[])))`);
  if (f.technologies?.length) out.push(shopUsesTechnologies('s', f.technologies));
  if (f.shop) out.push(...shopFilterConditions({ ...f.shop, adsGrowth: null }));
  if (f.visitorCountries?.length) out.push(...shopFilterConditions({ marketCountries: f.visitorCountries }));
  const frequency = f.avgEmailsPerWeek && avgEmailsPerWeekCondition(f.avgEmailsPerWeek);
  if (frequency) out.push(frequency);
  return out;
}

/**
 * The sending shop's adsGrowth, tested once per shop that sent emails. Its subqueries count the shop's ads: on the
 * joined shop (conditions) the planner would run them for every email, not seeing that they repeat.
 */
function sendingShopConditions(f: EmailFilter): Prisma.Sql[] {
  const growth = shopFilterConditions({ adsGrowth: f.shop?.adsGrowth });
  if (!growth.length) return [];
  return [sql`e."shopId" IN (SELECT s."id" FROM "shops" s WHERE s."id" IN (SELECT x."shopId" FROM "emails" x) AND ${Prisma.join(growth, ' AND ')})`];
}

/** The text rank of a keyword search sorted by relevance (how often the words occur in the shop's email text). */
function textRank(f: EmailFilter, sort: EmailSort): Prisma.Sql | null {
  if (sort.sortBy !== 'relevance' || f.search?.type !== 'shopKeywords') return null;
  return sql`ts_rank(e."searchText", ${tsQuery({ terms: f.search.terms, keywordMode: f.search.keywordMode })})`;
}

/** The order after the text rank (textRank). */
function order(sort: EmailSort): OrderKey[] {
  const dir = (fallback: 'asc' | 'desc') => ((sort.order ?? fallback) === 'asc' ? 'ASC NULLS LAST' : 'DESC NULLS LAST');
  // sentAt and bodyLength are NOT NULL: plain ASC/DESC, which their indexes serve in either direction.
  const notNull = (fallback: 'asc' | 'desc') => ((sort.order ?? fallback) === 'asc' ? 'ASC' : 'DESC');
  const byId: OrderKey = { key: sql`e."id"`, direction: 'DESC' };
  const newest: OrderKey = { key: sql`e."sentAt"`, direction: notNull('desc') };
  switch (sort.sortBy) {
    case 'newest': return [newest, byId];
    case 'oldest': return [{ key: sql`e."sentAt"`, direction: notNull('asc') }, { key: sql`e."id"`, direction: 'ASC' }];
    case 'relevance': return [newest, byId];
    case 'monthlyVisits': return [{ key: sql`s."monthlyVisits"`, direction: dir('desc') }, newest, byId];
    case 'bodyLength': return [{ key: sql`e."bodyLength"`, direction: notNull('desc') }, newest, byId];
    case 'shopEmailFrequency': return [{ key: EMAILS_90D, direction: dir('desc') }, newest, byId];
    case 'event': return [{ key: sql`(SELECT v."name" FROM "email_events" v WHERE v."id" = e."eventId")`, direction: dir('asc') }, newest, byId];
    case 'promotionType': return [{ key: sql`(SELECT v."name" FROM "email_promotion_types" v WHERE v."id" = e."promotionTypeId")`, direction: dir('asc') }, newest, byId];
  }
}

const SENT_AT = { table: sql`"emails"`, column: sql`"sentAt"` };
const INDEXED_SORTS = new Set<EmailSortValue>(['newest', 'oldest', 'bodyLength', 'relevance']);

/**
 * Whether a condition or the order reads the email's shop (alias s). When none does, the list leaves the join out:
 * PostgreSQL would remove it, but only after planning it in each of the statement's copies of the list.
 */
const readsShop = (parts: Prisma.Sql[]) => parts.some((part) => /(^|[^\w"])s\."/.test(part.sql));

/** The emails list for `filter` and `sort`: what findPage needs besides the page and how its rows are read. */
export function emailList(filter: EmailFilter, sort: EmailSort): ListQuery {
  const own = conditions(filter);
  const keys = order(sort);
  const shop = readsShop([...own, ...keys.map((k) => k.key)]) ? sql`LEFT JOIN "shops" s ON s."id" = e."shopId"` : Prisma.empty;
  const where = [...own, ...sendingShopConditions(filter)];
  return {
    id: sql`e."id"`,
    from: sql`FROM "emails" e ${shop} WHERE ${Prisma.join(where.length ? where : [sql`TRUE`], ' AND ')}`,
    order: keys,
    // A keyword search's page and total cost a bounded amount (shared/list.ts), unless the order is computed.
    // Sorted by relevance, the first matches by date are ranked: the text index holds "sentAt" (migration 0025), so
    // past the cap they are looked for among the newest (or oldest) emails first (leadingWindows, shared/list.ts). A list
    // narrowed to a few shops seldom has enough of its matches there: then the window's scan is wasted, and every
    // match is read, as before.
    search: filter.search?.type === 'shopKeywords' ? { rank: textRank(filter, sort), leading: SENT_AT } : undefined,
    scansAllMatches: !INDEXED_SORTS.has(sort.sortBy),
    boundedTotal: true, // the list reports meta.totalRelation
  };
}
