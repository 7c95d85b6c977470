import { Prisma } from '../../../generated/prisma/client.js';
import { leaf, shapeJsonText, shapeRecord, type ItemLeafKind, type ItemShape } from '../../shared/json-rows.js';
import type { ExportRows } from '../../shared/list.js';

// An ad summary as REST shows it, for exports read in bulk (ExportRows, shared/list.ts): a row of the lists' own FROM
// (`from`: the ad `a`, its advertiser `v`; the transcript's text as the summary reads it), as PublicAd's resolvers
// (ads/types.ts) answer the routes' whole selection, in its order, collationId left out when null (the routes'
// omitNull); test/exports compares such an export with the route's pages walked to the end. Declared once as a shape
// (shared/json-rows.ts): PostgreSQL writes it as JSON text (read by a cursor, the embedded database), or reads it as a
// record of typed values that the export's worker thread writes (a streamed read on PostgreSQL).

const value = (kind: ItemLeafKind, names: [string, string][]): ItemShape => names.map(([key, column]) => [key, leaf(kind, column)]);

/** The transcript's text as the summary reads it: its row looked up by the ad's id. */
const TRANSCRIPT_LOOKED_UP = '(SELECT t0."fullText" FROM "ad_transcripts" t0 WHERE t0."adId" = a."id" LIMIT 1)';

/**
 * The shape of an ad summary: `cpm` the request's CPM (estimatedSpend: Math.round(reach × cpm / 1000), in float8 as
 * JavaScript computes it), `daysRunning` the lists' days running SQL, `transcript` SQL of the transcript's text.
 */
function adShape(cpm: number, daysRunning: Prisma.Sql, transcript: string): ItemShape {
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
    ['media', [['type', leaf('enum', 'a."mediaType"')], ['thumbnailUrl', leaf('media', 'a."thumbnailUrl"')], ['mediaUrl', leaf('media', 'a."mediaUrl"')]]],
    ['advertiser', [
      ['id', leaf('text', 'v."id"')], ['name', leaf('text', 'v."name"')], ['logoUrl', leaf('media', 'v."logoUrl"')], ['facebookPageId', leaf('text', 'v."id"')],
      ...value('int', [['liveAdsCount', 'v."liveAdsCount"']]), ...value('bigint', [['reach30d', 'v."reach30d"'], ['totalReach', 'v."totalReach"']]),
      ...value('int', [['countriesCount', 'v."countriesCount"'], ['facebookLikes', 'v."facebookLikes"'], ['instagramFollowers', 'v."instagramFollowers"']]),
    ]],
    ['content', [
      ...value('text', [['title', 'a."title"'], ['body', 'a."body"']]),
      ['transcript', leaf('text', transcript)],
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
      ['targetedCountries', leaf('texts', `coalesce(a."targetedCountries", '{}')`)],
      ...value('text', [['mainCountry', 'a."mainCountry"'], ['gender', 'a."gender"']]),
      ...value('int', [['ageMin', 'a."ageMin"'], ['ageMax', 'a."ageMax"']]),
    ]],
    ['rank', [...value('int', [['positionInPage', 'a."positionInPage"'], ['currentRank', 'a."currentRank"'], ['rankDelta', 'a."rankDelta"']]), ...value('float', [['improvementPct', 'a."improvementPct"']])]],
    ['flags', value('bool', [['isEuAd', 'a."isEuAd"'], ['isLowReach', 'a."isLowReach"'], ['isMediaChanged', 'a."isMediaChanged"'], ['hasPartnerBadge', 'a."hasPartnerBadge"']])],
  ];
}

/**
 * The FROM of a list's matches that carry (CARRIED) their advertiser's and transcript's addresses: the lists' own
 * (the ad `a`, its advertiser `v`) and the transcript `xt` (at most one an ad: its primary key is the ad's id).
 */
export function carryingFrom(from: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`${from} LEFT JOIN "ad_transcripts" xt ON xt."adId" = a."id"`;
}

/**
 * For a list whose matches are carryingFrom's: the advertiser's and the transcript's addresses carried through the
 * ordered query (one hash join each for the whole list), so that each item reads them by address, not by a probe of
 * a primary key per ad (the advertiser's: ~0.8 s of PostgreSQL's 5 s for the 249,436 ads of the medium scale; the
 * transcript's, a subquery per ad most of which find none, ~20% of the per-row work at the small scale).
 */
const CARRIED = {
  columns: Prisma.sql`v.ctid AS tv, xt.ctid AS tt`,
  from: Prisma.sql`FROM "ads" a LEFT JOIN "advertisers" v ON v.ctid = o.tv LEFT JOIN "ad_transcripts" xt ON xt.ctid = o.tt`,
};

/**
 * How a list of ad summaries (a row of `from`, the lists' FROM: the ad `a` and its advertiser `v`) is written in bulk
 * for an export (ExportRows), at the request's CPM: as JSON text, or as the record the export's worker writes.
 * `carried`: the list's matches are carryingFrom's (CARRIED).
 */
export function adExportRows(from: Prisma.Sql, cpm: number, daysRunning: Prisma.Sql, carried = false): ExportRows {
  const shape = () => adShape(cpm, daysRunning, carried ? 'xt."fullText"' : TRANSCRIPT_LOOKED_UP);
  return {
    from,
    item: (base) => shapeJsonText(shape(), base),
    record: (baseUrl) => shapeRecord(shape(), baseUrl),
    carry: carried ? CARRIED : undefined,
    // The carried lists' matches join the ad, its advertiser and its transcript, all the record reads.
    inMatches: carried,
  };
}
