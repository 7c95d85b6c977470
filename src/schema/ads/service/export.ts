import { Prisma } from '../../../generated/prisma/client.js';
import { leaf, shapeJsonText, shapeRecord, type ItemLeafKind, type ItemShape } from '../../shared/json-rows.js';
import type { ExportRows } from '../../shared/list.js';
import { mediaUrlSql } from '../../shared/media-url.js';

// An ad summary as REST shows it, for exports read in bulk (ExportRows, shared/list.ts): a row of the lists' own FROM
// (`from`: the ad `a`, its advertiser `v`; the transcript's text as the summary reads it), as PublicAd's resolvers
// (ads/types.ts) answer the routes' whole selection, in its order, collationId left out when null (the routes'
// omitNull); test/exports compares such an export with the route's pages walked to the end. Declared once as a shape
// (shared/json-rows.ts): PostgreSQL writes it as JSON text (read by a cursor, the embedded database), or reads it as a
// record of typed values that the export's worker thread writes (a streamed read on PostgreSQL).

const value = (kind: ItemLeafKind, names: [string, string][]): ItemShape => names.map(([key, column]) => [key, leaf(kind, column)]);

/**
 * The shape of an ad summary: `base` is the media URLs' base, `cpm` the request's CPM (estimatedSpend:
 * Math.round(reach × cpm / 1000), in float8 as JavaScript computes it), `daysRunning` the lists' days running SQL.
 */
function adShape(base: Prisma.Sql, cpm: number, daysRunning: Prisma.Sql): ItemShape {
  const collated = 'a."duplicates" > 1';
  return [
    ['id', leaf('text', 'a."id"')],
    ['collationId', leaf('text', `(CASE WHEN ${collated} THEN a."collationId" END)`, true)],
    ['platform', leaf('text', 'a."platform"')],
    ['status', leaf('enum', 'a."status"')],
    ['createdAt', leaf('iso', 'a."createdAt"')],
    ['firstSeenAt', leaf('iso', 'a."firstSeenAt"')],
    ['lastSeenAt', leaf('iso', `(CASE WHEN ${collated} AND a."status" = 'active' THEN NULL ELSE a."lastSeenAt" END)`)],
    ['daysRunning', leaf('int', Prisma.sql`greatest(0, ${daysRunning})::int`)],
    ['media', [['type', leaf('enum', 'a."mediaType"')], ['thumbnailUrl', leaf('text', mediaUrlSql('a."thumbnailUrl"', base))], ['mediaUrl', leaf('text', mediaUrlSql('a."mediaUrl"', base))]]],
    ['advertiser', [
      ['id', leaf('text', 'v."id"')], ['name', leaf('text', 'v."name"')], ['logoUrl', leaf('text', mediaUrlSql('v."logoUrl"', base))], ['facebookPageId', leaf('text', 'v."id"')],
      ...value('int', [['liveAdsCount', 'v."liveAdsCount"']]), ...value('bigint', [['reach30d', 'v."reach30d"'], ['totalReach', 'v."totalReach"']]),
      ...value('int', [['countriesCount', 'v."countriesCount"'], ['facebookLikes', 'v."facebookLikes"'], ['instagramFollowers', 'v."instagramFollowers"']]),
    ]],
    ['content', [
      ...value('text', [['title', 'a."title"'], ['body', 'a."body"']]),
      ['transcript', leaf('text', '(SELECT t0."fullText" FROM "ad_transcripts" t0 WHERE t0."adId" = a."id" LIMIT 1)')],
      ...value('text', [['callToAction', 'a."callToAction"'], ['landingPageUrl', 'a."landingPageUrl"'], ['landingPageDomain', 'a."landingPageDomain"'],
        ['ctaDescription', 'a."ctaDescription"'], ['ctaLinkDescription', 'a."ctaLinkDescription"']]),
    ]],
    ['metrics', [
      ...value('bigint', [['reach', 'a."reach"'], ['aggregatedReach', 'a."aggregatedReach"']]),
      ['estimatedSpend', leaf('bigint', Prisma.sql`floor(a."reach"::float8 * ${cpm}::float8 / 1000 + 0.5)::bigint`)],
      ...value('int', [['duplicates', 'a."duplicates"']]),
      ...value('bigint', [['reachDelta1d', 'a."reachDelta1d"'], ['reachDelta7d', 'a."reachDelta7d"'], ['reachDelta30d', 'a."reachDelta30d"']]),
    ]],
    ['audience', [
      ['targetedCountries', leaf('json', `to_json(coalesce(a."targetedCountries", '{}'))::text`)],
      ...value('text', [['mainCountry', 'a."mainCountry"'], ['gender', 'a."gender"']]),
      ...value('int', [['ageMin', 'a."ageMin"'], ['ageMax', 'a."ageMax"']]),
    ]],
    ['rank', [...value('int', [['positionInPage', 'a."positionInPage"'], ['currentRank', 'a."currentRank"'], ['rankDelta', 'a."rankDelta"']]), ...value('float', [['improvementPct', 'a."improvementPct"']])]],
    ['flags', value('bool', [['isEuAd', 'a."isEuAd"'], ['isLowReach', 'a."isLowReach"'], ['isMediaChanged', 'a."isMediaChanged"'], ['hasPartnerBadge', 'a."hasPartnerBadge"']])],
  ];
}

/**
 * For a list whose matches join the ad's advertiser as `v`: the advertiser's address carried through the ordered query
 * (one hash join for the whole list), so that each item reads it by address, not by a probe of its primary key
 * (~0.8 s of PostgreSQL's 5 s for the 249,436 ads of the medium scale).
 */
const ADVERTISER_CARRIED = { columns: Prisma.sql`v.ctid AS tv`, from: Prisma.sql`FROM "ads" a LEFT JOIN "advertisers" v ON v.ctid = o.tv` };

/**
 * How a list of ad summaries (a row of `from`, the lists' FROM: the ad `a` and its advertiser `v`) is written in bulk
 * for an export (ExportRows), at the request's CPM: as JSON text, or as the record the export's worker writes.
 * `advertiserJoined`: the list's matches join the advertiser as `v` (ADVERTISER_CARRIED).
 */
export function adExportRows(from: Prisma.Sql, cpm: number, daysRunning: Prisma.Sql, advertiserJoined = false): ExportRows {
  return {
    from,
    item: (base) => shapeJsonText(adShape(base, cpm, daysRunning)),
    record: (base) => shapeRecord(adShape(base, cpm, daysRunning)),
    carry: advertiserJoined ? ADVERTISER_CARRIED : undefined,
  };
}
