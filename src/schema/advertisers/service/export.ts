import { Prisma } from '../../../generated/prisma/client.js';
import { isoJson, jsonNumber, jsonText, jsonTextArray } from '../../shared/json-rows.js';
import type { ExportRows } from '../../shared/list.js';
import { mediaUrlSql } from '../../shared/media-url.js';

// An advertiser summary as REST shows it (AdvertiserSummary, types.ts, the route's whole selection), written by
// PostgreSQL for an export read in bulk (ExportRows, shared/list.ts): its three newest ads (one per duplicate group)
// and its main landing pages (landing-pages.ts). test/exports/bulk-lists.test.ts compares an export with the route's
// pages walked to the end.

const sql = Prisma.sql;

function item(base: Prisma.Sql): Prisma.Sql {
  const lastAd = jsonText([['id', 'a."id"'], ['mediaUrl', mediaUrlSql('a."mediaUrl"', base)], ['thumbnailUrl', mediaUrlSql('a."thumbnailUrl"', base)]]);
  const landingPage = jsonText([['landingPage', 'l."landingPage"'], ['screenshotUrl', mediaUrlSql('l."screenshotUrl"', base)]]);
  return jsonText([
    ['id', 'v."id"'], ['platform', `'"facebook"'`, 'json'], ['facebookPageId', 'v."id"'], ['name', 'v."name"'], ['logoUrl', mediaUrlSql('v."logoUrl"', base)],
    ['profile', jsonText([['likes', ...jsonNumber('v."facebookLikes"')], ['instagramFollowers', ...jsonNumber('v."instagramFollowers"')], ['createdAt', isoJson('v."pageCreatedAt"'), 'json']]), 'json'],
    ['advertising', jsonText([['activeAds', ...jsonNumber('v."liveAdsCount"')], ['reach30d', ...jsonNumber('v."reach30d"')]]), 'json'],
    ['lastAds', jsonTextArray(lastAd, sql`FROM (SELECT a.* FROM "ads" a WHERE a."advertiserId" = v."id" AND a."isGroupLead" ORDER BY a."firstSeenAt" DESC, a."id" LIMIT 3) a`, sql`a."firstSeenAt" DESC, a."id"`), 'json'],
    ['mainLandingPages', jsonTextArray(landingPage, sql`FROM "advertiser_main_landing_pages" l WHERE l."advertiserId" = v."id"`, sql`l."position"`), 'json'],
  ]);
}

/** How the advertisers list's rows (`v`) are written in bulk for an export. */
export const EXPORTED_ADVERTISERS: ExportRows = { from: sql`FROM "advertisers" v`, item };
