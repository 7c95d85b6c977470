import { Prisma } from '../../../generated/prisma/client.js';
import { daysRunningSql } from '../../shared/days-running.js';
import { isoJson, jsonEnum, jsonNumber, jsonText, jsonTextArray } from '../../shared/json-rows.js';
import type { ExportRows } from '../../shared/list.js';
import { mediaUrlSql } from '../../shared/media-url.js';

// A Google ad as REST shows it (GoogleAdRef and its objects, types.ts, the route's whole selection), written by
// PostgreSQL for an export read in bulk (ExportRows, shared/list.ts). test/exports/bulk-lists.test.ts compares an
// export with the route's pages walked to the end.

const sql = Prisma.sql;

function item(base: Prisma.Sql): Prisma.Sql {
  const country = jsonText([['countryCode', `e.v->>'countryCode'`], ['share', `(e.v->'share')::text`, 'json']]);
  return jsonText([
    ['id', 'g."id"'], ['googleAdId', 'g."googleAdId"'], ['status', ...jsonEnum('g."status"')], ['network', ...jsonEnum('g."network"')],
    ['firstSeenAt', isoJson('g."firstSeenAt"'), 'json'], ['lastSeenAt', isoJson('g."lastSeenAt"'), 'json'],
    ['daysRunning', ...jsonNumber(`greatest(0, ${daysRunningSql({ alias: 'g', start: 'firstSeenAt', since2018: true }).sql})::int`)],
    ['media', jsonText([['type', ...jsonEnum('g."mediaType"')], ['url', mediaUrlSql('g."mediaUrl"', base)], ['format', 'g."format"']]), 'json'],
    ['advertiser', jsonText([
      ['id', 'v."id"'], ['name', 'v."name"'], ['shopName', 'v."shopName"'], ['domain', 'v."domain"'], ['websiteId', 'v."websiteId"'],
      ['logoUrl', mediaUrlSql('v."logoUrl"', base)],
      ['liveAds', jsonText([
        ['all', ...jsonNumber('v."liveAdsAll"')], ['search', ...jsonNumber('v."liveAdsSearch"')], ['shopping', ...jsonNumber('v."liveAdsShopping"')], ['maps', ...jsonNumber('v."liveAdsMaps"')],
        ['youtube', ...jsonNumber('v."liveAdsYoutube"')], ['other', ...jsonNumber('v."liveAdsOther"')],
      ]), 'json'],
    ]), 'json'],
    ['reach', jsonText([['value', ...jsonNumber('g."reach"')], ['lowerBound', ...jsonNumber('g."reachLowerBound"')], ['upperBound', ...jsonNumber('g."reachUpperBound"')]]), 'json'],
    ['audience', jsonText([
      ['mainCountry', 'g."mainCountry"'],
      ['countries', jsonTextArray(country, sql`FROM jsonb_array_elements(g."countryShares") WITH ORDINALITY AS e(v, o)`, sql`e.o`), 'json'],
      ['remarketing', ...jsonNumber('g."remarketing"')], ['interest', ...jsonNumber('g."interest"')],
    ]), 'json'],
  ]);
}

/** How the Google ads list's rows (`g`, its advertiser `v`) are written in bulk for an export. */
export const EXPORTED_GOOGLE_ADS: ExportRows = { from: sql`FROM "google_ads" g JOIN "google_advertisers" v ON v."id" = g."advertiserId"`, item };
