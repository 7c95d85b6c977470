import { Prisma } from '../../../generated/prisma/client.js';
import { daysRunningSql } from '../../shared/days-running.js';
import { isoJson, jsonText, jsonTextArray } from '../../shared/json-rows.js';
import type { ExportRows } from '../../shared/list.js';
import { mediaUrlSql } from '../../shared/media-url.js';

// A TikTok library item as REST shows it (TikTokItemFields and its objects: types.ts, profile.ts, the route's whole
// selection), written by PostgreSQL for an export read in bulk (ExportRows, shared/list.ts): its profile, music, shop,
// pin (never pinned: isCurrent false, no dates) and its profile's latest snapshot. test/exports/bulk-lists.test.ts
// compares an export with the route's pages walked to the end.

const sql = Prisma.sql;
const FROM = sql`FROM "tiktok_items" i JOIN "tiktok_profiles" p ON p."id" = i."profileId"
  LEFT JOIN "tiktok_music" m ON m."id" = i."musicId" LEFT JOIN "shops" s ON s."id" = i."shopId" LEFT JOIN "tiktok_pins" n ON n."itemId" = i."id"`;

const num = (column: string) => [`(${column})::text`, 'json'] as const;
const enumText = (column: string) => [`'"' || ${column}::text || '"'`, 'json'] as const;
const iso = (column: string) => [isoJson(column), 'json'] as const;

function item(base: Prisma.Sql): Prisma.Sql {
  // mediasOf (types.ts): the video alone, else each image in order.
  const medias = sql`(CASE WHEN i."videoUrl" IS NOT NULL AND i."videoUrl" <> '' THEN '[' || ${jsonText([['type', `'"video"'`, 'json'], ['url', mediaUrlSql('i."videoUrl"', base)], ['order', `'0'`, 'json']])} || ']'
    ELSE ${jsonTextArray(jsonText([['type', `'"image"'`, 'json'], ['url', mediaUrlSql('u.url', base)], ['order', '(u.o - 1)::text', 'json']]), sql`FROM unnest(i."imageUrls") WITH ORDINALITY AS u(url, o)`, sql`u.o`)} END)`;
  const mediaCount = `(CASE WHEN i."videoUrl" IS NOT NULL AND i."videoUrl" <> '' THEN 1 ELSE cardinality(i."imageUrls") END)`;
  const snapshot = sql`(SELECT ${jsonText([
    ['recordedAt', ...iso('x."recordedAt"')], ['adsCount', ...num('x."adsCount"')], ['organicCount', ...num('x."organicCount"')], ['totalTikToks', ...num('x."totalTikToks"')],
    ['dailyViews', ...num('x."dailyViews"')], ['dailyLikes', ...num('x."dailyLikes"')], ['dailyFollowers', ...num('x."dailyFollowers"')],
  ])} FROM "tiktok_page_snapshots" x WHERE x."profileId" = p."id" ORDER BY x."date" DESC LIMIT 1)`;
  return jsonText([
    ['id', `'tiktok_' || i."id"`], ['tiktokId', 'i."id"'], ['type', ...enumText('i."type"')], ['status', ...enumText('i."status"')], ['isPinned', ...num('i."isPinned"')],
    ['publishedAt', ...iso('i."publishedAt"')], ['createdAt', ...iso('i."createdAt"')], ['updatedAt', ...iso('i."updatedAt"')], ['indexedAt', ...iso('i."indexedAt"')],
    ['daysRunning', ...num(`greatest(0, ${daysRunningSql({ alias: 'i', start: 'publishedAt', since2018: false }).sql})::int`)],
    ['media', jsonText([
      ['type', ...enumText('i."mediaType"')], ['thumbnailUrl', mediaUrlSql('i."thumbnailUrl"', base)], ['mediaUrl', mediaUrlSql('i."mediaUrl"', base)],
      ['videoUrl', mediaUrlSql('i."videoUrl"', base)],
      ['imageUrls', jsonTextArray(sql`to_json(${mediaUrlSql('u.url', base)})::text`, sql`FROM unnest(i."imageUrls") WITH ORDINALITY AS u(url, o)`, sql`u.o`), 'json'],
      ['medias', medias, 'json'], ['durationSec', ...num('i."durationSec"')], ['mediaCount', ...num(mediaCount)], ['imageCount', ...num('cardinality(i."imageUrls")')],
    ]), 'json'],
    ['content', jsonText([
      ['description', 'i."description"'], ['language', 'i."language"'], ['category', 'i."category"'], ['hashtags', 'i."hashtags"'],
      ['music', sql`(CASE WHEN m."id" IS NULL THEN NULL ELSE ${jsonText([['id', 'm."id"'], ['title', 'm."title"'], ['author', 'm."author"']])} END)`, 'json'],
    ]), 'json'],
    ['metrics', jsonText([
      ['views', ...num('i."views"')], ['likes', ...num('i."likes"')], ['comments', ...num('i."comments"')], ['saves', ...num('i."saves"')], ['shares', ...num('i."shares"')],
      ['reposts', ...num('i."reposts"')], ['engagementRate', ...num('i."engagementRate"')], ['rank', ...num('i."rank"')], ['rankPercent', ...num('i."rankPercent"')],
      ['relevanceScore', ...num('i."relevanceScore"')], ['deltaRank3d', ...num('i."deltaRank3d"')], ['deltaRank7d', ...num('i."deltaRank7d"')],
      ['deltaRank14d', ...num('i."deltaRank14d"')], ['deltaRank30d', ...num('i."deltaRank30d"')],
    ]), 'json'],
    ['profile', jsonText([
      ['id', 'p."id"'], ['handle', 'p."handle"'], ['name', 'p."name"'], ['avatarUrl', mediaUrlSql('p."avatarUrl"', base)], ['bio', 'p."bio"'], ['bioUrl', 'p."bioUrl"'],
      ['accountType', 'p."accountType"'], ['secUid', 'p."secUid"'], ['followers', ...num('p."followers"')], ['following', ...num('p."following"')],
      ['totalTikToks', ...num('p."totalTikToks"')], ['newTikToks', ...num('p."newTikToks"')], ['percentAds', ...num('p."percentAds"')], ['views', ...num('p."views"')],
      ['likes', ...num('p."likes"')], ['pageCreation', ...iso('p."pageCreation"')],
    ]), 'json'],
    // The shop's logo and favicon when its row has none: shopLogoUrl and shopFaviconUrl (figures.ts).
    ['shop', sql`(CASE WHEN s."id" IS NULL THEN NULL ELSE ${jsonText([
      ['id', 's."id"'], ['domain', 's."domain"'], ['name', 's."name"'],
      ['logoUrl', mediaUrlSql(`coalesce(s."logoUrl", '/media/shops/' || s."id" || '/logo.png')`, base)],
      ['faviconUrl', mediaUrlSql(`coalesce(s."faviconUrl", 'https://' || s."domain" || '/favicon.ico')`, base)],
      ['countryCode', 's."countryCode"'], ['monthlyVisits', ...num('s."monthlyVisits"')], ['trafficGrowth30d', ...num('s."trafficGrowth30d"')],
      ['productsCount', ...num('s."productsCount"')], ['googleCategoryIds', 's."categoryIds"'],
    ])} END)`, 'json'],
    ['pin', jsonText([
      ['isCurrent', ...num('coalesce(n."isCurrent", false)')], ['firstPinnedAt', ...iso('n."firstPinnedAt"')], ['lastPinnedAt', ...iso('n."lastPinnedAt"')],
      ['lastUnpinnedAt', ...iso('n."lastUnpinnedAt"')],
    ]), 'json'],
    ['pageSnapshot', snapshot, 'json'],
  ]);
}

/** How the TikTok library's rows (`i`) are written in bulk for an export. */
export const EXPORTED_TIKTOK_ITEMS: ExportRows = { from: FROM, item };
