import { Prisma } from '../../../generated/prisma/client.js';
import { isoJson, jsonNumber, jsonText, jsonTextArray } from '../../shared/json-rows.js';
import type { ExportRows } from '../../shared/list.js';
import { mediaUrlSql } from '../../shared/media-url.js';
import { EU_CPM_USD, type RowView } from '../figures.js';

// A product as REST shows it (the Product type's resolvers and views.ts, the route's whole selection), written by
// PostgreSQL for an export read in bulk (ExportRows, shared/list.ts): decimals as the JavaScript numbers toNumber()
// gives (float8), the views' arithmetic in float8 as JavaScript computes it (Math.round(x) as floor(x + 0.5)), EU
// figures at the request's CPM or null below the Pro plan. test/exports/bulk-lists.test.ts compares an export with the
// route's pages walked to the end.

const sql = Prisma.sql;
const FROM = sql`FROM "products" p LEFT JOIN "shops" s ON s."id" = p."shopId"`;

function product(base: Prisma.Sql, view: RowView): Prisma.Sql {
  // euSpend (figures.ts): Math.round(stored × cpm / EU_CPM_USD × 100) / 100, null without EU access.
  const euSpend = (column: string) => (view.euAccess ? sql`floor(${Prisma.raw(column)} * ${view.cpm}::float8 / ${EU_CPM_USD}::float8 * 100 + 0.5) / 100` : sql`NULL::float8`);
  const euOnly = (column: string) => (view.euAccess ? column : 'NULL');
  const onSale = 'p."compareAtPrice" IS NOT NULL AND p."compareAtPrice" > p."price"';
  const discount = `CASE WHEN ${onSale} AND p."compareAtPrice" > 0 THEN floor((1 - p."price"::float8 / p."compareAtPrice"::float8) * 1000 + 0.5) / 10 END`;
  const elements = (column: string) => sql`FROM jsonb_array_elements(${Prisma.raw(column)}) WITH ORDINALITY AS e(v, o)`;
  const week = jsonText([
    ['from', `to_json(to_char(w."weekStart", 'YYYY-MM-DD'))::text`, 'json'], ['to', `to_json(to_char(w."weekEnd", 'YYYY-MM-DD'))::text`, 'json'],
    ['activeAds', ...jsonNumber('w."activeAds"')], ['euDailySpendUsd', ...jsonNumber(euSpend('w."euDailySpendUsd"'))], ['euDailyReach', ...jsonNumber(euOnly('w."euDailyReach"'))],
  ]);
  return jsonText([
    ['id', 'p."id"'], ['shopifyId', 'p."shopifyId"'], ['title', 'p."title"'], ['description', 'p."description"'], ['url', 'p."url"'], ['handle', 'p."handle"'],
    ['imageUrl', mediaUrlSql('p."imageUrl"', base)],
    ['publishedAt', isoJson('p."publishedAt"'), 'json'],
    ['price', jsonText([
      ['amount', ...jsonNumber('p."price"::float8')], ['currency', 'p."currency"'], ['amountUsd', ...jsonNumber('p."priceUsd"::float8')],
      ['compareAtAmount', ...jsonNumber('p."compareAtPrice"::float8')], ['onSale', ...jsonNumber(`coalesce(${onSale}, false)`)], ['discountPercent', ...jsonNumber(discount)],
      ['isSubscription', ...jsonNumber('p."isSubscription"')], ['promoTypes', 'p."promoTypes"'],
    ]), 'json'],
    ['reviews', jsonText([['rating', ...jsonNumber('p."rating"')], ['count', ...jsonNumber('p."reviewCount"')]]), 'json'],
    ['bestSellerRank', jsonText([['position', ...jsonNumber('p."bestSellerPosition"')], ['percentile', ...jsonNumber('p."bestSellerPercentile"')]]), 'json'],
    ['optionNames', 'p."optionNames"'],
    ['sales', jsonText([
      ['dailyRevenueUsd', ...jsonNumber('p."dailyRevenueUsd"')],
      ['dailyRevenueRangeUsd', jsonText([['min', ...jsonNumber('p."dailyRevenueMinUsd"')], ['mean', ...jsonNumber('p."dailyRevenueUsd"')], ['max', ...jsonNumber('p."dailyRevenueMaxUsd"')]]), 'json'],
      ['monthlyRevenueUsd', ...jsonNumber('p."monthlyRevenueUsd"')], ['dailyUnitsSold', ...jsonNumber('p."dailyUnitsSold"')], ['monthlyUnitsSold', ...jsonNumber('p."monthlyUnitsSold"')],
    ]), 'json'],
    ['ads', jsonText([
      ['active', ...jsonNumber('p."activeAds"')], ['total', ...jsonNumber('p."totalAds"')], ['launched30d', ...jsonNumber('p."adsLaunched30d"')],
      ['weekOverWeekGrowth', ...jsonNumber('p."weekOverWeekGrowth"')], ['adShare', ...jsonNumber('p."adShare"')], ['advertisersCount', ...jsonNumber('p."advertisersCount"')],
      ['hasPartnershipAds', ...jsonNumber('p."hasPartnershipAds"')],
      ['previewUrls', jsonTextArray(sql`to_json(${mediaUrlSql('u.url', base)})::text`, sql`FROM unnest(p."previewUrls") WITH ORDINALITY AS u(url, o)`, sql`u.o`), 'json'],
      ['activeByCountry', jsonTextArray(jsonText([['countryCode', `e.v->>'countryCode'`], ['activeAds', `(e.v->'activeAds')::text`, 'json']]), elements('p."activeByCountry"'), sql`e.o`), 'json'],
      ['sellingCountries', 'p."sellingCountries"'],
    ]), 'json'],
    ['euMetrics', jsonText([
      ['locked', view.euAccess ? `'false'` : `'true'`, 'json'],
      ['spendUsd', ...jsonNumber(euSpend('p."euSpendUsd"'))], ['dailySpendUsd', ...jsonNumber(euSpend('p."euDailySpendUsd"'))],
      ['reach', ...jsonNumber(euOnly('p."euReach"'))], ['spendShare', ...jsonNumber(euOnly('p."spendShare"'))],
      ['reachByCountry', view.euAccess ? jsonTextArray(jsonText([['countryCode', `e.v->>'countryCode'`], ['reach', `(e.v->'reach')::text`, 'json']]), elements('p."euReachByCountry"'), sql`e.o`) : 'NULL', 'json'],
    ]), 'json'],
    ['weeklyHistory', jsonTextArray(week, sql`FROM "product_weeks" w WHERE w."productId" = p."id"`, sql`w."weekStart"`), 'json'],
    ['shop', jsonText([
      ['id', 's."id"'], ['domain', 's."domain"'], ['name', 's."name"'], ['avatarUrl', mediaUrlSql('s."logoUrl"', base)],
      ['countryCode', 's."countryCode"'], ['currency', 's."currency"'], ['productsCount', ...jsonNumber('s."productsCount"')], ['monthlyVisits', ...jsonNumber('s."monthlyVisits"')],
      ['monthlyRevenueUsd', ...jsonNumber('s."monthlyRevenueUsd"')], ['createdAt', isoJson('s."createdAt"'), 'json'], ['categoryIds', 's."categoryIds"'],
    ]), 'json'],
  ]);
}

/** How the products list's rows (`p`, its shop `s`) are written in bulk for an export, as the caller's view shows them. */
export function exportedProducts(view: RowView): ExportRows {
  return { from: FROM, item: (base) => product(base, view) };
}
