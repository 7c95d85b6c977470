import { Prisma } from '../../../generated/prisma/client.js';
import { hostOf } from '../../shared/codes.js';
import { inWorkspace } from '../../shared/workspace.js';
import type { LookupType, MatchField } from '../types.js';

// The lookup's three sources, one statement each: exact matches (page id, domain, Instagram handle, the name
// itself) and fuzzy name matches (pg_trgm word similarity, answered by the trigram indexes of migration 0010), each
// match then linked to the brand's other records: a page's primary shop, a shop's main page, the workspace's
// brandtracker of either.

const sql = Prisma.sql;

/** What a query can be besides a name: each form is tried for an exact match. */
export type LookupTerms = { name: string; pageId: string | null; host: string | null; handle: string | null };

export function termsOf(q: string): LookupTerms {
  const name = q.trim();
  const host = hostOf(name);
  const isHost = /^[a-z0-9-]+(\.[a-z0-9-]+)*\.[a-z]{2,}$/.test(host);
  const instagramPath = /^(?:https?:\/\/)?(?:www\.)?instagram\.com\/([A-Za-z0-9._]{1,30})\/?$/i.exec(name);
  const handle = instagramPath?.[1] ?? (/^@?[A-Za-z0-9._]{1,30}$/.test(name) ? name.replace(/^@/, '') : null);
  return {
    name,
    pageId: /^\d{1,40}$/.test(name) ? name : null,
    host: isHost && !instagramPath ? host : null,
    handle: handle ? handle.toLowerCase() : null,
  };
}

export type LookupRow = {
  key: string;
  exact: boolean;
  field: MatchField;
  score: number;
  advertiserId: string | null;
  advertiserName: string | null;
  liveAdsCount: number | null;
  reach30d: bigint | null;
  totalReach: bigint | null;
  shopId: string | null;
  shopDomain: string | null;
  shopName: string | null;
  monthlyVisits: number | null;
  brandtrackerId: string | null;
  brandtrackerName: string | null;
  brandtrackerPageId: string | null;
  addedAt: Date | null;
};

type Hit = Prisma.Sql;
const hit = (key: Prisma.Sql, field: MatchField, exact: boolean, score: Prisma.Sql = sql`1`) =>
  sql`${key} AS key, ${field}::text AS field, ${score}::float8 AS score, ${exact}::boolean AS exact`;

/**
 * Trigram similarity of a name to the query (the whole name, or its best-matching words), scaled below 1: a score
 * of 1 is an exact match's, so a fuzzy match that shares every trigram (a word of the name) still ranks after it.
 */
const similarity = (column: Prisma.Sql, q: string) => sql`0.99 * greatest(similarity(${column}, ${q}), word_similarity(${q}, ${column}))`;

/**
 * A fuzzy name match: a name whose word similarity to the query is at least this (it holds at least half of the
 * query's trigrams, in order). The functions of migration 0020 answer it for advertisers and shops with the
 * trigram index (their threshold is the same number); the workspace's brandtrackers, a few names, compare it.
 */
export const FUZZY_WORD_SIMILARITY = 0.5;

/**
 * The best `limit` fuzzy name matches of advertisers or shops: by score, then the larger brand (reach, visits), then id.
 * The functions first walk the largest brands for names holding every trigram of the query (migration 0023: the
 * answer to a common word); a domain is not a word of names (its "com" would have to be one), so for a host the walk
 * is skipped (its length 0): it would read its 2,000 names for nothing, at ~25 µs each for a query that long. Either
 * way the answer is the same (test/lookup/plan.test.ts).
 */
export function fuzzyNameHits(source: 'advertiser' | 'shop', terms: Pick<LookupTerms, 'name' | 'host'>, limit: number): Hit {
  const names = source === 'advertiser' ? sql`lookup_fuzzy_advertiser_names` : sql`lookup_fuzzy_shop_names`;
  const walk = terms.host ? sql`, 0` : Prisma.empty;
  return sql`SELECT ${hit(sql`f."id"`, 'name', false, sql`f."score"`)} FROM ${names}(${terms.name}, ${limit}${walk}) f`;
}

function advertiserHits(terms: LookupTerms, limit: number): Hit[] {
  const hits: Hit[] = [];
  if (terms.pageId) hits.push(sql`SELECT ${hit(sql`v."id"`, 'facebookPageId', true)} FROM "advertisers" v WHERE v."id" = ${terms.pageId}`);
  if (terms.handle) hits.push(sql`SELECT ${hit(sql`v."id"`, 'instagramHandle', true)} FROM "advertisers" v WHERE lower(v."instagramUsername") = ${terms.handle}`);
  if (terms.host) {
    hits.push(sql`SELECT ${hit(sql`l."advertiserId"`, 'domain', true)} FROM "shops" s JOIN "advertiser_shops" l ON l."shopId" = s."id" WHERE s."domain" = ${terms.host}`);
  }
  hits.push(sql`SELECT ${hit(sql`v."id"`, 'name', true)} FROM "advertisers" v WHERE lower(v."name") = lower(${terms.name})`);
  hits.push(fuzzyNameHits('advertiser', terms, limit));
  return hits;
}

function shopHits(terms: LookupTerms, limit: number): Hit[] {
  const hits: Hit[] = [];
  if (terms.host) hits.push(sql`SELECT ${hit(sql`s."id"::text`, 'domain', true)} FROM "shops" s WHERE s."domain" = ${terms.host}`);
  if (terms.pageId) hits.push(sql`SELECT ${hit(sql`l."shopId"::text`, 'facebookPageId', true)} FROM "advertiser_shops" l WHERE l."advertiserId" = ${terms.pageId}`);
  if (terms.handle) hits.push(sql`SELECT ${hit(sql`s."id"::text`, 'instagramHandle', true)} FROM "shops" s WHERE lower(s."instagramHandle") = ${terms.handle}`);
  hits.push(sql`SELECT ${hit(sql`s."id"::text`, 'name', true)} FROM "shops" s WHERE lower(s."name") = lower(${terms.name})`);
  hits.push(fuzzyNameHits('shop', terms, limit));
  return hits;
}

/** The workspace's active brandtrackers, under the name the workspace gave them. */
const tracked = (workspaceId: string) => sql`"brandtrackers" t JOIN "brandtracker_links" k
  ON k."brandtrackerId" = t."id" AND ${inWorkspace('k', workspaceId)} AND k."isActive"`;

function brandtrackerHits(terms: LookupTerms, limit: number, workspaceId: string): Hit[] {
  // Both the workspace's display name and the brand's own name are the brandtracker's names.
  const names = [sql`k."name"`, sql`t."name"`];
  const hits: Hit[] = [];
  if (terms.pageId) hits.push(sql`SELECT ${hit(sql`t."id"::text`, 'facebookPageId', true)} FROM ${tracked(workspaceId)} WHERE t."facebookPageId" = ${terms.pageId}`);
  if (terms.host) {
    // The tracked shop, one of the brand's websites, or a shop of the tracked page.
    hits.push(sql`SELECT ${hit(sql`t."id"::text`, 'domain', true)} FROM ${tracked(workspaceId)} JOIN "shops" s ON s."domain" = ${terms.host}
      WHERE s."id" = t."websiteId"
        OR EXISTS (SELECT 1 FROM "brandtracker_websites" w WHERE w."brandtrackerId" = t."id" AND w."shopId" = s."id")
        OR EXISTS (SELECT 1 FROM "advertiser_shops" l WHERE l."advertiserId" = t."facebookPageId" AND l."shopId" = s."id")`);
  }
  if (terms.handle) {
    hits.push(sql`SELECT ${hit(sql`t."id"::text`, 'instagramHandle', true)} FROM ${tracked(workspaceId)}
      JOIN "advertisers" v ON v."id" = t."facebookPageId" WHERE lower(v."instagramUsername") = ${terms.handle}`);
  }
  const exactName = Prisma.join(names.map((name) => sql`lower(${name}) = lower(${terms.name})`), ' OR ');
  hits.push(sql`SELECT ${hit(sql`t."id"::text`, 'name', true)} FROM ${tracked(workspaceId)} WHERE ${exactName}`);
  const fuzzy = Prisma.join(names.map((name) => sql`word_similarity(${terms.name}, ${name}) >= ${FUZZY_WORD_SIMILARITY}`), ' OR ');
  const score = sql`greatest(${Prisma.join(names.map((name) => sql`coalesce(${similarity(name, terms.name)}, 0)`), ', ')})`;
  hits.push(sql`(SELECT ${hit(sql`t."id"::text`, 'name', false, score)} FROM ${tracked(workspaceId)} WHERE ${fuzzy} ORDER BY 3 DESC, 1 LIMIT ${limit})`);
  return hits;
}

const PRIMARY_SHOP_OF = (page: Prisma.Sql) => sql`(SELECT l."shopId" FROM "advertiser_shops" l JOIN "shops" s ON s."id" = l."shopId"
  WHERE l."advertiserId" = ${page} ORDER BY l."isPrimary" DESC, s."monthlyVisits" DESC, s."id" LIMIT 1)`;
const MAIN_PAGE_OF = (shop: Prisma.Sql) => sql`(SELECT l."advertiserId" FROM "advertiser_shops" l
  WHERE l."shopId" = ${shop} ORDER BY l."isMain" DESC, l."rank" ASC NULLS LAST, l."advertiserId" LIMIT 1)`;

/** Each matched record with the brand's other records: (advertiser id, shop id, brandtracker id). */
function linked(type: LookupType, workspaceId: string): Prisma.Sql {
  const trackerWhere = (condition: Prisma.Sql) => sql`(SELECT t."id" FROM ${tracked(workspaceId)} WHERE ${condition} ORDER BY t."id" LIMIT 1)`;
  switch (type) {
    case 'advertiser':
      return sql`m.key AS "advertiserId", ${PRIMARY_SHOP_OF(sql`m.key`)} AS "shopId", ${trackerWhere(sql`t."facebookPageId" = m.key`)} AS "brandtrackerId"`;
    case 'shop':
      return sql`${MAIN_PAGE_OF(sql`m.key::uuid`)} AS "advertiserId", m.key::uuid AS "shopId",
        ${trackerWhere(sql`t."websiteId" = m.key::uuid OR t."facebookPageId" = ${MAIN_PAGE_OF(sql`m.key::uuid`)}`)} AS "brandtrackerId"`;
    case 'brandtracker':
      return sql`b."facebookPageId" AS "advertiserId", coalesce(b."websiteId", ${PRIMARY_SHOP_OF(sql`b."facebookPageId"`)}) AS "shopId", b."id" AS "brandtrackerId"`;
  }
}

/** One source's matches, best first: exact before fuzzy, then score, then the larger brand. */
export function lookupSource(type: LookupType, terms: LookupTerms, limit: number, workspaceId: string): Prisma.Sql {
  const hits = type === 'advertiser' ? advertiserHits(terms, limit) : type === 'shop' ? shopHits(terms, limit) : brandtrackerHits(terms, limit, workspaceId);
  const fromMatch = type === 'brandtracker' ? sql`matched m JOIN "brandtrackers" b ON b."id"::text = m.key` : sql`matched m`;
  return sql`
    WITH hits AS (${Prisma.join(hits, ' UNION ALL ')}),
    matched AS (SELECT DISTINCT ON (key) key, field, score, exact FROM hits ORDER BY key, exact DESC, score DESC),
    linked AS (SELECT m.key, m.field, m.score, m.exact, ${linked(type, workspaceId)} FROM ${fromMatch})
    SELECT r.key, r.exact, r.field, r.score,
      v."id" AS "advertiserId", v."name" AS "advertiserName", v."liveAdsCount", v."reach30d", v."totalReach",
      s."id"::text AS "shopId", s."domain" AS "shopDomain", s."name" AS "shopName", s."monthlyVisits",
      t."id"::text AS "brandtrackerId", coalesce(k."name", t."name") AS "brandtrackerName", t."facebookPageId" AS "brandtrackerPageId", k."addedAt"
    FROM linked r
    LEFT JOIN "advertisers" v ON v."id" = r."advertiserId"
    LEFT JOIN "shops" s ON s."id" = r."shopId"
    LEFT JOIN (${tracked(workspaceId)}) ON t."id" = r."brandtrackerId"
    ORDER BY r.exact DESC, r.score DESC, coalesce(v."totalReach", 0) DESC, coalesce(s."monthlyVisits", 0) DESC, r.key
    LIMIT ${limit}`;
}
