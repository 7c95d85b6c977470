import { AUTH, AUTH_COLUMNS, authedBody, ISO, type Route, type Row } from './floor-common.js';

// The floor of S11 (issue 17: POST /v1/emails/query with a text search, by relevance) and S12–S13 (issue 18: POST
// /v1/products/query with four filters sorted best-selling, its first page and a later one by cursor). One statement
// each. The bench workspace has no plan, so the products' EU figures are locked (null), as the project answers.

const EMAIL_JSON = `json_build_object('id', e."id", 'sentAt', ${ISO('e."sentAt"')}, 'campaignType', e."campaignType",
  'classification', json_build_object('promotionType', pt."name", 'promotionTypeId', e."promotionTypeId", 'category', c."name", 'categoryId', e."categoryId",
    'event', CASE WHEN v."id" IS NULL THEN NULL ELSE json_build_object('name', v."name", 'id', v."id", 'category', v."category") END),
  'content', json_build_object('subject', e."subject", 'preheader', e."preheader", 'body', e."body", 'bodyLength', e."bodyLength", 'screenshotUrl', e."screenshotUrl"),
  'shop', CASE WHEN s."id" IS NULL THEN NULL ELSE json_build_object('id', s."id", 'domain', s."domain", 'name', s."name") END)`;

function emailRow(row: Row): Row {
  const { body, ...content } = row.content;
  return { ...row, content: { subject: content.subject, preheader: content.preheader, bodyPreview: (body as string).slice(0, 200), bodyLength: content.bodyLength, screenshotUrl: content.screenshotUrl } };
}

/** The products of the bench's query: USD, selling in the US, priced from $20 (USD), with an active ad. */
const PRODUCT_MATCH = `p."currency" = ANY($2::text[]) AND p."sellingCountries" && $3::text[] AND p."priceUsd" > 0 AND p."priceUsd" >= $4 AND p."activeAds" >= $5`;
const BEST_SELLING = `coalesce(p."bestSellerPosition", 2147483647) ASC, (-p."monthlyRevenueUsd") ASC, p."id" ASC`;
const COUNT_WINDOW = 1_000;

function product(row: Row): Row {
  const p = row.product;
  const onSale = p.compareAtPrice !== null && p.compareAtPrice > p.price;
  return {
    id: p.id, shopifyId: p.shopifyId, title: p.title, description: p.description, url: p.url, handle: p.handle,
    imageUrl: p.imageUrl,
    publishedAt: p.publishedAt === null ? null : new Date(p.publishedAt).toISOString(),
    price: {
      amount: p.price, currency: p.currency, amountUsd: p.priceUsd, compareAtAmount: p.compareAtPrice, onSale,
      discountPercent: onSale && p.compareAtPrice > 0 ? Math.round((1 - p.price / p.compareAtPrice) * 1000) / 10 : null,
      isSubscription: p.isSubscription, promoTypes: p.promoTypes,
    },
    reviews: { rating: p.rating, count: p.reviewCount },
    bestSellerRank: { position: p.bestSellerPosition, percentile: p.bestSellerPercentile },
    optionNames: p.optionNames,
    sales: {
      dailyRevenueUsd: p.dailyRevenueUsd, dailyRevenueRangeUsd: { min: p.dailyRevenueMinUsd, mean: p.dailyRevenueUsd, max: p.dailyRevenueMaxUsd },
      monthlyRevenueUsd: p.monthlyRevenueUsd, dailyUnitsSold: p.dailyUnitsSold, monthlyUnitsSold: p.monthlyUnitsSold,
    },
    ads: {
      active: p.activeAds, total: p.totalAds, launched30d: p.adsLaunched30d, weekOverWeekGrowth: p.weekOverWeekGrowth, adShare: p.adShare,
      advertisersCount: p.advertisersCount, hasPartnershipAds: p.hasPartnershipAds, previewUrls: p.previewUrls, activeByCountry: p.activeByCountry, sellingCountries: p.sellingCountries,
    },
    euMetrics: { locked: true, spendUsd: null, dailySpendUsd: null, reach: null, spendShare: null, reachByCountry: null },
    weeklyHistory: row.weeks.map((w: Row) => ({ from: w.weekStart, to: w.weekEnd, activeAds: w.activeAds, euDailySpendUsd: null, euDailyReach: null })),
    shop: row.shop,
  };
}

export const marketRoutes: Route[] = [
  [/^\/v1\/emails\/query$/, async (_m, _u, key, request) => {
    const limit = Number(request.limit ?? 25);
    const page = Number(request.page ?? 1);
    const body = await authedBody(key, `WITH ${AUTH},
      q AS (SELECT (SELECT string_agg(plainto_tsquery('simple', term)::text, ' | ')::tsquery FROM unnest($2::text[]) term) AS q),
      -- Relevance as src/schema/shared/list.ts ranks it: the 250 newest matches (the list's own order),
      -- by text rank; the total counted up to 1,001.
      matches AS MATERIALIZED (SELECT e."id", ts_rank(e."searchText", q.q) AS rank, e."sentAt" FROM "emails" e, q WHERE e."searchText" @@ q.q
        ORDER BY e."sentAt" DESC, e."id" DESC LIMIT 250),
      page AS (SELECT *, row_number() OVER (ORDER BY rank DESC, "sentAt" DESC NULLS LAST, "id" DESC) AS n FROM matches ORDER BY n LIMIT $3 OFFSET $4)
      SELECT ${AUTH_COLUMNS}, json_build_object('total', (SELECT count(*)::int FROM (SELECT 1 FROM "emails" e, q WHERE e."searchText" @@ q.q LIMIT 1001) m),
        'data', (SELECT coalesce(json_agg(${EMAIL_JSON} ORDER BY g.n), '[]')
        FROM page g JOIN "emails" e ON e."id" = g."id" LEFT JOIN "shops" s ON s."id" = e."shopId" LEFT JOIN "email_promotion_types" pt ON pt."id" = e."promotionTypeId"
        LEFT JOIN "email_categories" c ON c."id" = e."categoryId" LEFT JOIN "email_events" v ON v."id" = e."eventId")) AS body`,
    [request.search, limit, (page - 1) * limit]);
    // Text search totals as src/schema/shared/list.ts: exact up to 1,000, beyond it a flagged lower bound.
    if (!body) return body;
    const rows = body.data.length;
    const exact = body.total <= 1_000 || (rows > 0 && rows < limit);
    const total = body.total <= 1_000 ? body.total : exact ? (page - 1) * limit + rows : Math.max(1_000, rows > 0 ? (page - 1) * limit + rows : 0);
    return { data: body.data.map(emailRow), pagination: { page, limit, total, totalPages: Math.ceil(total / limit) }, meta: { totalRelation: exact ? 'eq' : 'gte' } };
  }],
  [/^\/v1\/products\/query$/, async (_m, _u, key, request) => {
    const limit = Number(request.limit ?? 25);
    const after = request.cursor ? (JSON.parse(Buffer.from(String(request.cursor).split('.')[0], 'base64url').toString('utf8')) as { k: string[]; n: number }) : null;
    const keyset = after ? `AND (coalesce(p."bestSellerPosition", 2147483647), (-p."monthlyRevenueUsd"), p."id") > ($7::int4, $8::float8, $9::text)` : '';
    const body = await authedBody(key, `WITH ${AUTH},
      page AS (SELECT p."id", coalesce(p."bestSellerPosition", 2147483647)::text AS k0, (-p."monthlyRevenueUsd")::text AS k1, row_number() OVER (ORDER BY ${BEST_SELLING}) AS n
        FROM "products" p WHERE ${PRODUCT_MATCH} ${keyset} ORDER BY ${BEST_SELLING} LIMIT $6 + 1),
      counted AS (SELECT count(*) FILTER (WHERE w.m)::int AS matched, count(*)::int AS examined
        FROM (SELECT (${PRODUCT_MATCH}) AS m FROM "products" p ORDER BY ${BEST_SELLING} LIMIT ${COUNT_WINDOW}) w)
      SELECT ${AUTH_COLUMNS}, json_build_object('matched', (SELECT matched FROM counted), 'examined', (SELECT examined FROM counted),
        'rows', (SELECT coalesce(json_agg(json_build_object('k', json_build_array(g.k0, g.k1, g."id"), 'product', to_jsonb(p) - 'searchTitle' - 'searchDescription',
          'weeks', (SELECT coalesce(json_agg(json_build_object('weekStart', to_char(w."weekStart", 'YYYY-MM-DD'), 'weekEnd', to_char(w."weekEnd", 'YYYY-MM-DD'), 'activeAds', w."activeAds") ORDER BY w."weekStart"), '[]')
            FROM "product_weeks" w WHERE w."productId" = p."id"),
          'shop', json_build_object('id', s."id", 'domain', s."domain", 'name', s."name", 'avatarUrl', s."logoUrl", 'countryCode', s."countryCode", 'currency', s."currency",
            'productsCount', s."productsCount", 'monthlyVisits', s."monthlyVisits", 'monthlyRevenueUsd', s."monthlyRevenueUsd", 'createdAt', ${ISO('s."createdAt"')}, 'categoryIds', s."categoryIds"))
          ORDER BY g.n), '[]') FROM page g JOIN "products" p ON p."id" = g."id" JOIN "shops" s ON s."id" = p."shopId")) AS body`,
    [request.currencies, request.sellingCountries, request.minPrice, request.minActiveAds, limit, ...(after ? after.k : [])]);
    if (!body) return null;
    // The total as the project counts it: within the first COUNT_WINDOW products of the order, exact when the list ends.
    const rows = (body.rows as Row[]).slice(0, limit);
    const seen = (after?.n ?? 0) + rows.length;
    const more = body.rows.length > limit;
    let [total, exact] = [body.matched as number, (body.examined as number) < COUNT_WINDOW];
    if (!more) [total, exact] = [seen, true];
    else if (total <= seen) [total, exact] = [seen + 1, false];
    const last = rows[rows.length - 1];
    const nextCursor = more && last ? `${Buffer.from(JSON.stringify({ q: 'floor', k: last.k, n: seen })).toString('base64url')}.floor` : null;
    return { data: rows.map(product), pagination: { limit, total, totalRelation: exact ? 'eq' : 'gte', nextCursor } };
  }],
];
