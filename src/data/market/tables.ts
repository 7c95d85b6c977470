import type { BulkColumn } from '../bulk.js';
import type { AdSeed } from './ads.js';
import type { AdvertiserSeed, LinkSeed, ShopSeed } from './advertisers.js';
import type { Market } from './generate.js';
import type { HookSeed, TranscriptSeed } from './copy.js';
import { growthSeries } from './snapshots.js';
import { isoTimestamp } from './time.js';

// The market tables, in foreign-key order, as column lists and row streams for bulkInsert.
// Each column is declared next to the value it takes, so names, types and values cannot drift apart.

export const MARKET_TABLES = [
  'advertisers',
  'shops',
  'advertiser_shops',
  'ads',
  'ad_transcripts',
  'ad_hooks',
  'ad_reach_days',
  'advertiser_metric_days',
] as const;

export type MarketTable = (typeof MARKET_TABLES)[number];
export type TableRows = { table: MarketTable; columns: BulkColumn[]; total: number; rows: Iterable<unknown[]> };

type Column<T> = readonly [name: string, type: string, value: (item: T) => unknown];

function define<T>(table: MarketTable, total: number, items: Iterable<T>, columns: readonly Column<T>[]): TableRows {
  function* rows() {
    for (const item of items) yield columns.map(([, , value]) => value(item));
  }
  return { table, columns: columns.map(([name, type]) => ({ name, type })), total, rows: rows() };
}

type ReachDay = { ad: AdSeed; date: string; reach: number; rank: number };
type MetricDay = { advertiser: AdvertiserSeed; date: string; likes: number; followers: number; impressions: number };

function* reachDays(market: Market): Generator<ReachDay> {
  for (const ad of market.ads) {
    const series = ad.series;
    if (!series) continue;
    for (let i = 0; i < series.values.length; i++) {
      yield { ad, date: market.window.dates[series.start + i], reach: series.values[i], rank: series.ranks[i] };
    }
  }
}

function* metricDays(market: Market): Generator<MetricDay> {
  for (const advertiser of market.advertisers) {
    const likes = growthSeries(market.metricsRng, advertiser.facebookLikes);
    const followers = growthSeries(market.metricsRng, advertiser.instagramFollowers);
    const impressions = market.totals.get(advertiser)!.impressions;
    for (const [i, date] of market.window.dates.entries()) {
      yield { advertiser, date, likes: likes[i], followers: followers[i], impressions: impressions[i] };
    }
  }
}

export function marketTables(market: Market): TableRows[] {
  const { ads, advertisers, totals } = market;
  const page = (advertiser: AdvertiserSeed) => totals.get(advertiser)!;
  const transcribed = ads.filter((ad) => ad.creative.transcript);
  const hooked = ads.filter((ad) => ad.creative.hook);
  const transcript = (ad: AdSeed) => ad.creative.transcript as TranscriptSeed;
  const hook = (ad: AdSeed) => ad.creative.hook as HookSeed;
  return [
    define<AdvertiserSeed>('advertisers', advertisers.length, advertisers, [
      ['id', 'text', (a) => a.id],
      ['name', 'text', (a) => a.name],
      ['logoUrl', 'text', (a) => `https://cdn.example.com/pages/${a.id}.png`],
      ['category', 'text', (a) => a.category],
      ['pageCreatedAt', 'timestamptz', (a) => isoTimestamp(page(a).pageCreatedAt)],
      ['facebookLikes', 'int4', (a) => a.facebookLikes],
      ['instagramFollowers', 'int4', (a) => a.instagramFollowers],
      ['instagramUsername', 'text', (a) => a.instagramUsername],
      ['liveAdsCount', 'int4', (a) => page(a).liveAdsCount],
      ['reach30d', 'int8', (a) => page(a).reach30d],
      ['totalReach', 'int8', (a) => page(a).totalReach],
      ['countriesCount', 'int4', (a) => page(a).countriesCount],
    ]),
    define<ShopSeed>('shops', market.shops.length, market.shops, [
      ['id', 'uuid', (s) => s.id],
      ['domain', 'text', (s) => s.domain],
      ['name', 'text', (s) => s.name],
      ['monthlyVisits', 'int4', (s) => s.monthlyVisits],
      ['categories', 'text[]', (s) => s.categories],
      ['createdAt', 'timestamptz', (s) => isoTimestamp(s.createdAt)],
    ]),
    define<LinkSeed>('advertiser_shops', market.links.length, market.links, [
      ['advertiserId', 'text', (l) => l.advertiserId],
      ['shopId', 'uuid', (l) => l.shopId],
      ['isPrimary', 'bool', (l) => l.isPrimary],
    ]),
    define<AdSeed>('ads', ads.length, ads, [
      ['id', 'text', (ad) => ad.id],
      ['collationId', 'text', (ad) => ad.collationId],
      ['isGroupLead', 'bool', (ad) => ad.isGroupLead],
      ['platform', 'text', () => 'facebook'],
      ['status', '"AdStatus"', (ad) => ad.status],
      ['createdAt', 'timestamptz', (ad) => isoTimestamp(ad.createdAt)],
      ['firstSeenAt', 'timestamptz', (ad) => isoTimestamp(ad.firstSeenAt)],
      ['lastSeenAt', 'timestamptz', (ad) => isoTimestamp(ad.lastSeenAt)],
      ['mediaType', '"AdMediaType"', (ad) => ad.creative.mediaType],
      ['thumbnailUrl', 'text', (ad) => ad.thumbnailUrl],
      ['mediaUrl', 'text', (ad) => ad.mediaUrl],
      ['title', 'text', (ad) => ad.creative.title],
      ['body', 'text', (ad) => ad.creative.body],
      ['callToAction', 'text', (ad) => ad.creative.callToAction],
      ['landingPageUrl', 'text', (ad) => ad.creative.landingPageUrl],
      ['landingPageDomain', 'text', (ad) => ad.creative.landingPageDomain],
      ['ctaDescription', 'text', (ad) => ad.creative.ctaDescription],
      ['ctaLinkDescription', 'text', (ad) => ad.creative.ctaLinkDescription],
      ['reach', 'int8', (ad) => ad.reach],
      ['aggregatedReach', 'int8', (ad) => ad.aggregatedReach],
      ['duplicates', 'int4', (ad) => ad.duplicates],
      ['reachDelta1d', 'int8', (ad) => ad.reachDelta1d],
      ['reachDelta7d', 'int8', (ad) => ad.reachDelta7d],
      ['reachDelta30d', 'int8', (ad) => ad.reachDelta30d],
      ['targetedCountries', 'text[]', (ad) => ad.targetedCountries],
      ['mainCountry', 'text', (ad) => ad.mainCountry],
      ['gender', 'text', (ad) => ad.gender],
      ['ageMin', 'int4', (ad) => ad.ageMin],
      ['ageMax', 'int4', (ad) => ad.ageMax],
      ['positionInPage', 'int4', (ad) => ad.positionInPage],
      ['currentRank', 'int4', (ad) => ad.currentRank],
      ['rankDelta', 'int4', (ad) => ad.rankDelta],
      ['improvementPct', 'float8', (ad) => ad.improvementPct],
      ['isEuAd', 'bool', (ad) => ad.isEuAd],
      ['isLowReach', 'bool', (ad) => ad.reach < 1000],
      ['isMediaChanged', 'bool', (ad) => ad.isMediaChanged],
      ['hasPartnerBadge', 'bool', (ad) => ad.hasPartnerBadge],
      ['advertiserId', 'text', (ad) => ad.advertiser.id],
    ]),
    define<AdSeed>('ad_transcripts', transcribed.length, transcribed, [
      ['adId', 'text', (ad) => ad.id],
      ['language', 'text', (ad) => transcript(ad).language],
      ['languageConfidence', 'float8', (ad) => transcript(ad).languageConfidence],
      ['segments', 'jsonb', (ad) => transcript(ad).segments],
      ['fullText', 'text', (ad) => transcript(ad).fullText],
    ]),
    define<AdSeed>('ad_hooks', hooked.length, hooked, [
      ['adId', 'text', (ad) => ad.id],
      ['text', 'text', (ad) => hook(ad).text],
      ['source', 'text', (ad) => hook(ad).source],
      ['sourceDescription', 'text', (ad) => hook(ad).sourceDescription],
      ['isFallback', 'bool', (ad) => hook(ad).isFallback],
    ]),
    define<ReachDay>('ad_reach_days', ads.reduce((sum, ad) => sum + (ad.series?.values.length ?? 0), 0), reachDays(market), [
      ['adId', 'text', (day) => day.ad.id],
      ['date', 'date', (day) => day.date],
      ['reach', 'int8', (day) => day.reach],
      ['rank', 'int4', (day) => day.rank],
    ]),
    define<MetricDay>('advertiser_metric_days', advertisers.length * market.window.dates.length, metricDays(market), [
      ['advertiserId', 'text', (day) => day.advertiser.id],
      ['date', 'date', (day) => day.date],
      ['facebookLikes', 'int4', (day) => day.likes],
      ['instagramFollowers', 'int4', (day) => day.followers],
      ['totalImpressions', 'int8', (day) => day.impressions],
    ]),
  ];
}
