import type { AdSeed } from './ads.js';
import type { AdvertiserSeed, LinkSeed, ShopSeed } from './advertisers.js';
import type { AdSlice, MarketSlice } from './generate.js';
import type { HookSeed, TranscriptSeed } from './copy.js';
import { define } from './define.js';
import type { DemographyCell } from './demography.js';
import type { GoogleAdSeed, GoogleAdvertiserSeed } from './google.js';
import type { LandingPageSeed } from './landing-pages.js';
import type { TechnologyFacet } from './facets.js';
import { brandtrackerTables } from './brandtrackers.js';
import { emailTables } from './emails.js';
import { productTables } from './products.js';
import { facetTables, shopApps, shopHistoryTables, shopPixels } from './shop-profiles.js';
import { GOOGLE_TAXONOMY, taxonomyPath, type TaxonomyEntry } from './taxonomy.js';
import type { TikTokItemSeed, TikTokMusicSeed, TikTokProfileSeed, TikTokSnapshotSeed } from './tiktok.js';
import { isoTimestamp } from './time.js';
export { MARKET_TABLES, type MarketTable, type TableRows } from './define.js';
import type { TableRows } from './define.js';

// The market tables' rows, slice by slice, for bulkInsert. Each column is declared next to the value it takes
// (see define.ts), so names, types and values cannot drift apart. The shop profiles, products, emails and
// brandtrackers declare theirs in their own modules.

type ReachDay = { ad: AdSeed; date: string; reach: number; rank: number };
type DemographyRow = DemographyCell & { ad: AdSeed };
type MetricDay = { advertiser: AdvertiserSeed; date: string; likes: number; followers: number; impressions: number };
type LandingTechnology = { page: LandingPageSeed; technology: TechnologyFacet };

function* landingTechnologies(pages: LandingPageSeed[]): Generator<LandingTechnology> {
  for (const page of pages) for (const technology of page.technologies) yield { page, technology };
}

function* reachDays(slice: AdSlice): Generator<ReachDay> {
  for (const ad of slice.ads) {
    const series = ad.series;
    if (!series) continue;
    for (let i = 0; i < series.values.length; i++) {
      yield { ad, date: slice.window.dates[series.start + i], reach: series.values[i], rank: series.ranks[i] };
    }
  }
}

function* demographyRows(ads: AdSeed[]): Generator<DemographyRow> {
  for (const ad of ads) for (const cell of ad.demography) yield { ad, ...cell };
}

function* metricDays(slice: AdSlice): Generator<MetricDay> {
  for (const [n, advertiser] of slice.advertisers.entries()) {
    const { likes, followers } = slice.metrics[n];
    const impressions = slice.totals.get(advertiser)!.impressions;
    for (const [i, date] of slice.window.dates.entries()) {
      yield { advertiser, date, likes: likes[i], followers: followers[i], impressions: impressions[i] };
    }
  }
}

/** The rows of one slice of the market, table by table in foreign-key order. */
export function sliceTables(slice: MarketSlice): TableRows[] {
  switch (slice.kind) {
    case 'setup':
    {
      // The facets before the shops (theme); the shops' own rows come with the shop-history slices.
      const [categories, shops] = setupTables(slice.shops);
      return [categories, ...facetTables(), shops];
    }
    case 'brandtrackers':
      return brandtrackerTables(slice);
    case 'shop-history':
      return shopHistoryTables(slice);
    case 'products':
      return productTables(slice);
    case 'emails':
      return emailTables(slice);
    case 'ads':
      return adTables(slice);
    case 'tiktok':
      return tiktokTables(slice);
    case 'google':
      return googleTables(slice);
  }
}

function setupTables(shops: ShopSeed[]): TableRows[] {
  return [
    define<TaxonomyEntry>('categories', GOOGLE_TAXONOMY.length, GOOGLE_TAXONOMY, [
      ['id', 'int4', (c) => c.id],
      ['name', 'text', (c) => c.name],
      ['path', 'text', (c) => taxonomyPath(c.id)],
      ['parentId', 'int4', (c) => c.parentId],
    ]),
    define<ShopSeed>('shops', shops.length, shops, [
      ['id', 'uuid', (s) => s.id],
      ['domain', 'text', (s) => s.domain],
      ['name', 'text', (s) => s.name],
      ['monthlyVisits', 'int4', (s) => s.monthlyVisits],
      ['categories', 'text[]', (s) => s.categories],
      ['categoryIds', 'int4[]', (s) => s.categoryIds ?? []],
      ['countryCode', 'text', (s) => s.countryCode ?? null],
      ['trafficGrowth30d', 'float8', (s) => s.trafficGrowth30d ?? null],
      ['productsCount', 'int4', (s) => s.productsCount ?? 0],
      ['createdAt', 'timestamptz', (s) => isoTimestamp(s.createdAt)],
      ['currency', 'text', (s) => s.profile!.currency],
      ['defaultLanguage', 'text', (s) => s.profile!.defaultLanguage],
      ['isShopifyPlus', 'bool', (s) => s.profile!.isShopifyPlus],
      ['myShopifyDomain', 'text', (s) => s.profile!.myShopifyDomain],
      ['relatedDomains', 'text[]', (s) => s.profile!.relatedDomains],
      ['mainMarket', 'text', (s) => s.profile!.mainMarket],
      ['isDtc', 'bool', (s) => s.profile!.isDtc],
      ['displayInTrending', 'bool', (s) => s.profile!.displayInTrending],
      ['screenshotUrl', 'text', (s) => `/media/shops/${s.id}/screenshot.jpg`],
      ['logoUrl', 'text', (s) => `/media/shops/${s.id}/logo.png`],
      ['faviconUrl', 'text', (s) => `/media/shops/${s.id}/favicon.png`],
      ['trafficGrowth90d', 'float8', (s) => s.profile!.trafficGrowth90d],
      ['trafficGrowth180d', 'float8', (s) => s.profile!.trafficGrowth180d],
      ['monthlyRevenueUsd', 'int4', (s) => s.catalog?.monthlyRevenueUsd ?? null],
      ['bestSellerPriceUsd', 'float8', (s) => s.catalog?.bestSellerPriceUsd ?? null],
      ['trustpilotRating', 'float8', (s) => s.profile!.trustpilot?.rating ?? null],
      ['trustpilotReviews', 'int4', (s) => s.profile!.trustpilot?.reviewCount ?? null],
      ['trustpilotUrl', 'text', (s) => (s.profile!.trustpilot ? `https://www.trustpilot.com/review/${s.domain}` : null)],
      ['facebookHandle', 'text', (s) => s.profile!.handles.facebook],
      ['instagramHandle', 'text', (s) => s.profile!.handles.instagram],
      ['tiktokHandle', 'text', (s) => s.profile!.handles.tiktok],
      ['youtubeHandle', 'text', (s) => s.profile!.handles.youtube],
      ['pinterestHandle', 'text', (s) => s.profile!.handles.pinterest],
      ['linkedinHandle', 'text', (s) => s.profile!.handles.linkedin],
      ['twitterHandle', 'text', (s) => s.profile!.handles.twitter],
      ['themeId', 'uuid', (s) => s.profile!.themeId],
      // The link tables' ids as the shop's facet arrays (migration 0022), sorted as refresh_shop_link_arrays sorts
      // them: written with the row, so that a market load need not rewrite every shop (which left half the table's
      // pages as dead space).
      ['appIds', 'int4[]', (s) => shopApps(s).sort((a, b) => a - b)],
      ['pixelIds', 'uuid[]', (s) => shopPixels(s).sort()],
      ['technologyIds', 'uuid[]', (s) => [...s.profile!.technologyIds].sort()],
    ]),
  ];
}

function adTables(slice: AdSlice): TableRows[] {
  const { ads, advertisers, totals } = slice;
  const page = (advertiser: AdvertiserSeed) => totals.get(advertiser)!;
  const transcribed = ads.filter((ad) => ad.creative.transcript);
  const hooked = ads.filter((ad) => ad.creative.hook);
  const transcript = (ad: AdSeed) => ad.creative.transcript as TranscriptSeed;
  const hook = (ad: AdSeed) => ad.creative.hook as HookSeed;
  const screenshot = (page: LandingPageSeed, kind: 'desktop' | 'mobile' | 'head') =>
    (kind === 'head' ? page.hasHeadScreenshot : page.hasScreenshots) ? `/media/landing-pages/${page.id}/${kind}.jpg` : null;
  const { landingPages } = slice;
  return [
    define<AdvertiserSeed>('advertisers', advertisers.length, advertisers, [
      ['id', 'text', (a) => a.id],
      ['name', 'text', (a) => a.name],
      ['logoUrl', 'text', (a) => `/media/pages/${a.id}.png`],
      ['category', 'text', (a) => a.category],
      ['pageCreatedAt', 'timestamptz', (a) => isoTimestamp(page(a).pageCreatedAt)],
      ['facebookLikes', 'int4', (a) => a.facebookLikes],
      ['instagramFollowers', 'int4', (a) => a.instagramFollowers],
      ['instagramUsername', 'text', (a) => a.instagramUsername],
      ['liveAdsCount', 'int4', (a) => page(a).liveAdsCount],
      ['reach30d', 'int8', (a) => page(a).reach30d],
      ['totalReach', 'int8', (a) => page(a).totalReach],
      ['countriesCount', 'int4', (a) => page(a).countriesCount],
      ['pageType', 'text', (a) => a.pageType],
      ['about', 'text', (a) => a.about],
      ['audienceGender', 'text', (a) => page(a).audienceGender],
      ['spenderSegment', 'text', (a) => page(a).spenderSegment],
    ]),
    define<LinkSeed>('advertiser_shops', slice.links.length, slice.links, [
      ['advertiserId', 'text', (l) => l.advertiserId],
      ['shopId', 'uuid', (l) => l.shopId],
      ['isPrimary', 'bool', (l) => l.isPrimary],
      ['isMain', 'bool', (l) => l.isMain ?? false],
      ['rank', 'int4', (l) => l.rank ?? null],
    ]),
    define<LandingPageSeed>('landing_pages', landingPages.length, landingPages, [
      ['id', 'uuid', (p) => p.id],
      ['url', 'text', (p) => p.url],
      ['normalizedUrl', 'text', (p) => p.normalizedUrl],
      ['domain', 'text', (p) => p.domain],
      ['shopId', 'uuid', (p) => p.shop?.id ?? null],
      ['screenshotDesktopUrl', 'text', (p) => screenshot(p, 'desktop')],
      ['screenshotMobileUrl', 'text', (p) => screenshot(p, 'mobile')],
      ['screenshotHeadUrl', 'text', (p) => screenshot(p, 'head')],
      ['firstSeenAt', 'timestamptz', (p) => isoTimestamp(p.firstSeenAt)],
    ]),
    define<LandingTechnology>(
      'landing_page_technologies',
      landingPages.reduce((sum, p) => sum + p.technologies.length, 0),
      landingTechnologies(landingPages),
      [
        ['landingPageId', 'uuid', (l) => l.page.id],
        ['technologyId', 'uuid', (l) => l.technology.id],
      ],
    ),
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
      ['videoDurationSec', 'float8', (ad) => ad.videoDurationSec],
      ['partnerPageId', 'text', (ad) => ad.partner?.id ?? null],
      ['partnerPageName', 'text', (ad) => ad.partner?.name ?? null],
      ['rankDelta7d', 'int4', (ad) => ad.rankDelta7d],
      ['rankDelta14d', 'int4', (ad) => ad.rankDelta14d],
      ['rankDelta30d', 'int4', (ad) => ad.rankDelta30d],
      ['bestRank', 'int4', (ad) => ad.bestRank],
      ['landingPageId', 'uuid', (ad) => ad.landingPage?.id ?? null],
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
    define<ReachDay>('ad_reach_days', ads.reduce((sum, ad) => sum + (ad.series?.values.length ?? 0), 0), reachDays(slice), [
      ['adId', 'text', (day) => day.ad.id],
      ['date', 'date', (day) => day.date],
      ['reach', 'int8', (day) => day.reach],
      ['rank', 'int4', (day) => day.rank],
    ]),
    define<DemographyRow>('ad_demography', ads.reduce((sum, ad) => sum + ad.demography.length, 0), demographyRows(ads), [
      ['adId', 'text', (row) => row.ad.id],
      ['country', 'text', (row) => row.country],
      ['ageRange', 'text', (row) => row.ageRange],
      ['gender', 'text', (row) => row.gender],
      ['reach', 'int8', (row) => row.reach],
    ]),
    define<MetricDay>('advertiser_metric_days', advertisers.length * slice.window.dates.length, metricDays(slice), [
      ['advertiserId', 'text', (day) => day.advertiser.id],
      ['date', 'date', (day) => day.date],
      ['facebookLikes', 'int4', (day) => day.likes],
      ['instagramFollowers', 'int4', (day) => day.followers],
      ['totalImpressions', 'int8', (day) => day.impressions],
    ]),
  ];
}

function tiktokTables(slice: Extract<MarketSlice, { kind: 'tiktok' }>): TableRows[] {
  const pinned = slice.items.filter((item) => item.pin);
  return [
    define<TikTokMusicSeed>('tiktok_music', slice.music.length, slice.music, [
      ['id', 'text', (m) => m.id],
      ['title', 'text', (m) => m.title],
      ['author', 'text', (m) => m.author],
    ]),
    define<TikTokProfileSeed>('tiktok_profiles', slice.profiles.length, slice.profiles, [
      ['id', 'text', (p) => p.id],
      ['handle', 'text', (p) => p.handle],
      ['name', 'text', (p) => p.name],
      ['avatarUrl', 'text', (p) => `/media/tiktok/avatars/${p.id}.jpg`],
      ['bio', 'text', (p) => p.bio],
      ['bioUrl', 'text', (p) => p.bioUrl],
      ['accountType', 'text', (p) => p.accountType],
      ['secUid', 'text', (p) => p.secUid],
      ['followers', 'int8', (p) => p.followers],
      ['following', 'int4', (p) => p.following],
      ['totalTikToks', 'int4', (p) => p.totalTikToks],
      ['newTikToks', 'int4', (p) => p.newTikToks],
      ['percentAds', 'float8', (p) => p.percentAds],
      ['views', 'int8', (p) => p.views],
      ['likes', 'int8', (p) => p.likes],
      ['pageCreation', 'timestamptz', (p) => isoTimestamp(p.pageCreation)],
      ['shopId', 'uuid', (p) => p.shop?.id ?? null],
    ]),
    define<TikTokItemSeed>('tiktok_items', slice.items.length, slice.items, [
      ['id', 'text', (i) => i.id],
      ['type', '"TikTokItemType"', (i) => i.type],
      ['status', '"TikTokItemStatus"', (i) => i.status],
      ['isPinned', 'bool', (i) => i.pin?.isCurrent ?? false],
      ['publishedAt', 'timestamptz', (i) => isoTimestamp(i.publishedAt)],
      ['createdAt', 'timestamptz', (i) => isoTimestamp(i.createdAt)],
      ['updatedAt', 'timestamptz', (i) => isoTimestamp(i.updatedAt)],
      ['indexedAt', 'timestamptz', (i) => isoTimestamp(i.indexedAt)],
      ['lastSeenAt', 'timestamptz', (i) => isoTimestamp(i.lastSeenAt)],
      ['mediaType', '"TikTokMediaType"', (i) => i.mediaType],
      ['thumbnailUrl', 'text', (i) => i.thumbnailUrl],
      ['mediaUrl', 'text', (i) => i.mediaUrl],
      ['videoUrl', 'text', (i) => i.videoUrl],
      ['imageUrls', 'text[]', (i) => i.imageUrls],
      ['durationSec', 'float8', (i) => i.durationSec],
      ['description', 'text', (i) => i.description],
      ['language', 'text', (i) => i.language],
      ['category', 'text', (i) => i.category],
      ['hashtags', 'text[]', (i) => i.hashtags],
      ['countries', 'text[]', (i) => i.countries],
      ['views', 'int8', (i) => i.views],
      ['likes', 'int8', (i) => i.likes],
      ['comments', 'int4', (i) => i.comments],
      ['saves', 'int4', (i) => i.saves],
      ['shares', 'int4', (i) => i.shares],
      ['reposts', 'int4', (i) => i.reposts],
      ['engagementRate', 'float8', (i) => i.engagementRate],
      ['rank', 'int4', (i) => i.rank],
      ['rankPercent', 'float8', (i) => i.rankPercent],
      ['relevanceScore', 'float8', (i) => i.relevanceScore],
      ['deltaRank3d', 'int4', (i) => i.deltaRanks[0]],
      ['deltaRank7d', 'int4', (i) => i.deltaRanks[1]],
      ['deltaRank14d', 'int4', (i) => i.deltaRanks[2]],
      ['deltaRank30d', 'int4', (i) => i.deltaRanks[3]],
      ['profileId', 'text', (i) => i.profile.id],
      ['musicId', 'text', (i) => i.music?.id ?? null],
      ['shopId', 'uuid', (i) => i.shop?.id ?? null],
    ]),
    define<TikTokItemSeed>('tiktok_pins', pinned.length, pinned, [
      ['itemId', 'text', (i) => i.id],
      ['isCurrent', 'bool', (i) => i.pin!.isCurrent],
      ['firstPinnedAt', 'timestamptz', (i) => isoTimestamp(i.pin!.firstPinnedAt)],
      ['lastPinnedAt', 'timestamptz', (i) => isoTimestamp(i.pin!.lastPinnedAt)],
      ['lastUnpinnedAt', 'timestamptz', (i) => (i.pin!.lastUnpinnedAt === null ? null : isoTimestamp(i.pin!.lastUnpinnedAt))],
    ]),
    define<TikTokSnapshotSeed>('tiktok_page_snapshots', slice.snapshots.length, slice.snapshots, [
      ['profileId', 'text', (s) => s.profile.id],
      ['date', 'date', (s) => s.date],
      ['recordedAt', 'timestamptz', (s) => isoTimestamp(s.recordedAt)],
      ['adsCount', 'int4', (s) => s.adsCount],
      ['organicCount', 'int4', (s) => s.organicCount],
      ['totalTikToks', 'int4', (s) => s.totalTikToks],
      ['dailyViews', 'int8', (s) => s.dailyViews],
      ['dailyLikes', 'int8', (s) => s.dailyLikes],
      ['dailyFollowers', 'int4', (s) => s.dailyFollowers],
    ]),
  ];
}

function googleTables(slice: Extract<MarketSlice, { kind: 'google' }>): TableRows[] {
  return [
    define<GoogleAdvertiserSeed>('google_advertisers', slice.advertisers.length, slice.advertisers, [
      ['id', 'text', (a) => a.id],
      ['name', 'text', (a) => a.name],
      ['shopName', 'text', (a) => a.shopName],
      ['domain', 'text', (a) => a.domain],
      ['websiteId', 'uuid', (a) => a.shop?.id ?? null],
      ['logoUrl', 'text', (a) => `/media/google/advertisers/${a.id}.png`],
      ['categoryIds', 'int4[]', (a) => a.categoryIds],
      ['liveAdsAll', 'int4', (a) => a.liveAds.all],
      ['liveAdsSearch', 'int4', (a) => a.liveAds.search],
      ['liveAdsShopping', 'int4', (a) => a.liveAds.shopping],
      ['liveAdsMaps', 'int4', (a) => a.liveAds.maps],
      ['liveAdsYoutube', 'int4', (a) => a.liveAds.youtube],
      ['liveAdsOther', 'int4', (a) => a.liveAds.other],
    ]),
    define<GoogleAdSeed>('google_ads', slice.ads.length, slice.ads, [
      ['id', 'text', (g) => g.id],
      ['googleAdId', 'text', (g) => g.googleAdId],
      ['status', '"GoogleAdStatus"', (g) => g.status],
      ['network', '"GoogleAdNetwork"', (g) => g.network],
      ['firstSeenAt', 'timestamptz', (g) => isoTimestamp(g.firstSeenAt)],
      ['lastSeenAt', 'timestamptz', (g) => isoTimestamp(g.lastSeenAt)],
      ['mediaType', '"GoogleAdMediaType"', (g) => g.mediaType],
      ['mediaUrl', 'text', (g) => g.mediaUrl],
      ['format', 'text', (g) => g.format],
      ['reach', 'int8', (g) => g.reach],
      ['reachLowerBound', 'int8', (g) => g.reachLowerBound],
      ['reachUpperBound', 'int8', (g) => g.reachUpperBound],
      ['mainCountry', 'text', (g) => g.countryShares[0]?.countryCode ?? null],
      ['countryShares', 'jsonb', (g) => g.countryShares],
      ['remarketing', 'bool', (g) => g.remarketing],
      ['interest', 'bool', (g) => g.interest],
      ['advertiserId', 'text', (g) => g.advertiser.id],
    ]),
  ];
}
