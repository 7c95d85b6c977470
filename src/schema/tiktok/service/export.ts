import { Prisma } from '../../../generated/prisma/client.js';
import { daysRunningSql } from '../../shared/days-running.js';
import { jsonEnum, jsonIso, jsonNumber, jsonText, jsonTextArray } from '../../shared/json-rows.js';
import type { ExportRows } from '../../shared/list.js';
import { mediaUrlSql } from '../../shared/media-url.js';

// A TikTok library item as REST shows it (TikTokItemFields and its objects: types.ts, profile.ts, the route's whole
// selection), written by PostgreSQL for an export read in bulk (ExportRows, shared/list.ts): its profile, music, shop,
// pin (never pinned: isCurrent false, no dates) and its profile's latest snapshot. test/exports/bulk-lists.test.ts
// compares an export with the route's pages walked to the end.

const sql = Prisma.sql;
const FROM = sql`FROM "tiktok_items" i JOIN "tiktok_profiles" p ON p."id" = i."profileId"
  LEFT JOIN "tiktok_music" m ON m."id" = i."musicId" LEFT JOIN "shops" s ON s."id" = i."shopId" LEFT JOIN "tiktok_pins" n ON n."itemId" = i."id"`;


function item(base: Prisma.Sql): Prisma.Sql {
  // mediasOf (types.ts): the video alone, else each image in order.
  const medias = sql`(CASE WHEN i."videoUrl" IS NOT NULL AND i."videoUrl" <> '' THEN '[' || ${jsonText([['type', `'"video"'`, 'json'], ['url', mediaUrlSql('i."videoUrl"', base)], ['order', `'0'`, 'json']])} || ']'
    ELSE ${jsonTextArray(jsonText([['type', `'"image"'`, 'json'], ['url', mediaUrlSql('u.url', base)], ['order', '(u.o - 1)::text', 'json']]), sql`FROM unnest(i."imageUrls") WITH ORDINALITY AS u(url, o)`, sql`u.o`)} END)`;
  const mediaCount = `(CASE WHEN i."videoUrl" IS NOT NULL AND i."videoUrl" <> '' THEN 1 ELSE cardinality(i."imageUrls") END)`;
  const snapshot = sql`(SELECT ${jsonText([
    ['recordedAt', ...jsonIso('x."recordedAt"')], ['adsCount', ...jsonNumber('x."adsCount"')], ['organicCount', ...jsonNumber('x."organicCount"')], ['totalTikToks', ...jsonNumber('x."totalTikToks"')],
    ['dailyViews', ...jsonNumber('x."dailyViews"')], ['dailyLikes', ...jsonNumber('x."dailyLikes"')], ['dailyFollowers', ...jsonNumber('x."dailyFollowers"')],
  ])} FROM "tiktok_page_snapshots" x WHERE x."profileId" = p."id" ORDER BY x."date" DESC LIMIT 1)`;
  return jsonText([
    ['id', `'tiktok_' || i."id"`], ['tiktokId', 'i."id"'], ['type', ...jsonEnum('i."type"')], ['status', ...jsonEnum('i."status"')], ['isPinned', ...jsonNumber('i."isPinned"')],
    ['publishedAt', ...jsonIso('i."publishedAt"')], ['createdAt', ...jsonIso('i."createdAt"')], ['updatedAt', ...jsonIso('i."updatedAt"')], ['indexedAt', ...jsonIso('i."indexedAt"')],
    ['daysRunning', ...jsonNumber(`greatest(0, ${daysRunningSql({ alias: 'i', start: 'publishedAt', since2018: false }).sql})::int`)],
    ['media', jsonText([
      ['type', ...jsonEnum('i."mediaType"')], ['thumbnailUrl', mediaUrlSql('i."thumbnailUrl"', base)], ['mediaUrl', mediaUrlSql('i."mediaUrl"', base)],
      ['videoUrl', mediaUrlSql('i."videoUrl"', base)],
      ['imageUrls', jsonTextArray(sql`to_json(${mediaUrlSql('u.url', base)})::text`, sql`FROM unnest(i."imageUrls") WITH ORDINALITY AS u(url, o)`, sql`u.o`), 'json'],
      ['medias', medias, 'json'], ['durationSec', ...jsonNumber('i."durationSec"')], ['mediaCount', ...jsonNumber(mediaCount)], ['imageCount', ...jsonNumber('cardinality(i."imageUrls")')],
    ]), 'json'],
    ['content', jsonText([
      ['description', 'i."description"'], ['language', 'i."language"'], ['category', 'i."category"'], ['hashtags', 'i."hashtags"'],
      ['music', sql`(CASE WHEN m."id" IS NULL THEN NULL ELSE ${jsonText([['id', 'm."id"'], ['title', 'm."title"'], ['author', 'm."author"']])} END)`, 'json'],
    ]), 'json'],
    ['metrics', jsonText([
      ['views', ...jsonNumber('i."views"')], ['likes', ...jsonNumber('i."likes"')], ['comments', ...jsonNumber('i."comments"')], ['saves', ...jsonNumber('i."saves"')], ['shares', ...jsonNumber('i."shares"')],
      ['reposts', ...jsonNumber('i."reposts"')], ['engagementRate', ...jsonNumber('i."engagementRate"')], ['rank', ...jsonNumber('i."rank"')], ['rankPercent', ...jsonNumber('i."rankPercent"')],
      ['relevanceScore', ...jsonNumber('i."relevanceScore"')], ['deltaRank3d', ...jsonNumber('i."deltaRank3d"')], ['deltaRank7d', ...jsonNumber('i."deltaRank7d"')],
      ['deltaRank14d', ...jsonNumber('i."deltaRank14d"')], ['deltaRank30d', ...jsonNumber('i."deltaRank30d"')],
    ]), 'json'],
    ['profile', jsonText([
      ['id', 'p."id"'], ['handle', 'p."handle"'], ['name', 'p."name"'], ['avatarUrl', mediaUrlSql('p."avatarUrl"', base)], ['bio', 'p."bio"'], ['bioUrl', 'p."bioUrl"'],
      ['accountType', 'p."accountType"'], ['secUid', 'p."secUid"'], ['followers', ...jsonNumber('p."followers"')], ['following', ...jsonNumber('p."following"')],
      ['totalTikToks', ...jsonNumber('p."totalTikToks"')], ['newTikToks', ...jsonNumber('p."newTikToks"')], ['percentAds', ...jsonNumber('p."percentAds"')], ['views', ...jsonNumber('p."views"')],
      ['likes', ...jsonNumber('p."likes"')], ['pageCreation', ...jsonIso('p."pageCreation"')],
    ]), 'json'],
    // The shop's logo and favicon when its row has none: shopLogoUrl and shopFaviconUrl (figures.ts).
    ['shop', sql`(CASE WHEN s."id" IS NULL THEN NULL ELSE ${jsonText([
      ['id', 's."id"'], ['domain', 's."domain"'], ['name', 's."name"'],
      ['logoUrl', mediaUrlSql(`coalesce(s."logoUrl", '/media/shops/' || s."id" || '/logo.png')`, base)],
      ['faviconUrl', mediaUrlSql(`coalesce(s."faviconUrl", 'https://' || s."domain" || '/favicon.ico')`, base)],
      ['countryCode', 's."countryCode"'], ['monthlyVisits', ...jsonNumber('s."monthlyVisits"')], ['trafficGrowth30d', ...jsonNumber('s."trafficGrowth30d"')],
      ['productsCount', ...jsonNumber('s."productsCount"')], ['googleCategoryIds', 's."categoryIds"'],
    ])} END)`, 'json'],
    ['pin', jsonText([
      ['isCurrent', ...jsonNumber('coalesce(n."isCurrent", false)')], ['firstPinnedAt', ...jsonIso('n."firstPinnedAt"')], ['lastPinnedAt', ...jsonIso('n."lastPinnedAt"')],
      ['lastUnpinnedAt', ...jsonIso('n."lastUnpinnedAt"')],
    ]), 'json'],
    ['pageSnapshot', snapshot, 'json'],
  ]);
}

/** How the TikTok library's rows (`i`) are written in bulk for an export. */
export const EXPORTED_TIKTOK_ITEMS: ExportRows = { from: FROM, item };
