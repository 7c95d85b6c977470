// Response shapes from the specification, and a way to compare a JSON value's keys with them.
// A shape is written as an example value: objects list their keys, an array holds one example item,
// and any leaf (1, '', null) stands for a scalar.

/**
 * Every key path of a JSON value, sorted: `a`, `a.b`, and `a[].b` for the items of an array. All items
 * of an array must have the same key paths (a mixed list fails loudly). Null and scalars end a path.
 */
export function keyPaths(value: unknown, prefix = ''): string[] {
  const out = new Set<string>();
  const visit = (node: unknown, at: string) => {
    if (Array.isArray(node)) {
      let first: string[] | null = null;
      for (const [index, item] of node.entries()) {
        const paths = keyPaths(item, `${at}[]`);
        if (first && JSON.stringify(paths) !== JSON.stringify(first)) {
          throw new Error(`items of ${at || 'the array'} differ in keys: item 0 ${JSON.stringify(first)}, item ${index} ${JSON.stringify(paths)}`);
        }
        first ??= paths;
        paths.forEach((path) => out.add(path));
      }
      return;
    }
    if (node === null || typeof node !== 'object') return;
    for (const [key, child] of Object.entries(node)) {
      const path = at ? `${at}.${key}` : key;
      out.add(path);
      visit(child, path);
    }
  };
  visit(value, prefix);
  return [...out].sort();
}

/** The top-level keys of an object, sorted. */
export const keysOf = (value: object) => Object.keys(value).sort();

// --- Specification: "Ad summary (PublicAd)"; collationId only on rows that stand for a duplicate group.
export const AD_SUMMARY = {
  id: 1,
  platform: 1,
  status: 1,
  createdAt: 1,
  firstSeenAt: 1,
  lastSeenAt: 1,
  daysRunning: 1,
  media: { type: 1, thumbnailUrl: 1, mediaUrl: 1 },
  advertiser: {
    id: 1, name: 1, logoUrl: 1, facebookPageId: 1, liveAdsCount: 1, reach30d: 1, totalReach: 1, countriesCount: 1, facebookLikes: 1, instagramFollowers: 1,
  },
  content: { title: 1, body: 1, transcript: 1, callToAction: 1, landingPageUrl: 1, landingPageDomain: 1, ctaDescription: 1, ctaLinkDescription: 1 },
  metrics: { reach: 1, aggregatedReach: 1, estimatedSpend: 1, duplicates: 1, reachDelta1d: 1, reachDelta7d: 1, reachDelta30d: 1 },
  audience: { targetedCountries: [''], mainCountry: 1, gender: 1, ageMin: 1, ageMax: 1 },
  rank: { positionInPage: 1, currentRank: 1, rankDelta: 1, improvementPct: 1 },
  flags: { isEuAd: 1, isLowReach: 1, isMediaChanged: 1, hasPartnerBadge: 1 },
};
export const AD_SUMMARY_GROUPED = { ...AD_SUMMARY, collationId: 1 };

// --- Specification: "Ad detail (Ad summary plus)"; resolvedFrom only when another group member is returned.
const AD_DETAIL_EXTRA = {
  transcript: { language: 1, languageConfidence: 1, segments: [{ start: 1, end: 1, text: 1 }], fullText: 1 },
  creativeAnalysis: { hook: { text: 1, source: 1, sourceDescription: 1, isFallback: 1 } },
  links: { adLibraryUrl: 1, landingPageUrl: 1 },
  shops: [{ shopId: 1, domain: 1, name: 1, isPrimary: 1, traffic: 1, categories: [''] }],
  pageAnalytics: {
    impressionsHistory: [{ date: 1, totalImpressions: 1 }],
    facebookLikesHistory: [{ date: 1, value: 1 }],
    instagramFollowersHistory: [{ date: 1, value: 1 }],
  },
  provenance: { source: 1, firstFetchedAt: 1, lastFetchedAt: 1 },
};
export const AD_DETAIL_GROUPED = { ...AD_SUMMARY_GROUPED, ...AD_DETAIL_EXTRA };
export const AD_DETAIL_RESOLVED = { ...AD_DETAIL_GROUPED, resolvedFrom: { requestedId: 1, reason: 1 } };

// --- Specification: "Workspace, credential, usage" and gaps-filled "Identity" (GET /v1/me).
export const ME = {
  requestId: 1,
  credential: { id: 1, name: 1, description: 1, accessLevel: 1, expiresAt: 1, createdAt: 1, lastUsedAt: 1 },
  workspace: { id: 1, slug: 1, name: 1, createdAt: 1 },
  delegatedUser: { id: 1, fullName: 1, avatarUrl: 1, workspaceRole: 1 },
};
export const WORKSPACE = {
  requestId: 1,
  workspace: { id: 1, slug: 1, name: 1, createdAt: 1 },
  authenticatedAs: { accessLevel: 1, delegatedUserId: 1, delegatedUserRole: 1 },
  credential: { id: 1, name: 1, description: 1, expiresAt: 1, createdAt: 1, lastUsedAt: 1 },
};
export const USAGE = {
  requestId: 1,
  workspace: { id: 1, slug: 1, name: 1 },
  credential: { id: 1, accessLevel: 1, lastUsedAt: 1 },
  billing: { configured: 1, planCode: 1, currentPeriodStart: 1, currentPeriodEnd: 1, updatedAt: 1 },
  includedQuota: { limit: 1, used: 1, remaining: 1 },
  credits: { balance: 1, recurring: { limit: 1, used: 1, remaining: 1 }, topup: { balance: 1 }, totalRemaining: 1 },
  // Additive: the plan's brandtracker quotas.
  brandtrackers: {
    activeBrandtrackers: { limit: 1, used: 1, remaining: 1 },
    createDeleteOperations: { limit: 1, used: 1, remaining: 1, periodStart: 1, periodEnd: 1 },
  },
};

export const PAGE_PAGINATION = { page: 1, limit: 1, total: 1, totalPages: 1 };

/** The error envelope; `details.validationErrors[]` on validation failures. */
export const ERROR = { error: { code: 1, message: 1, requestId: 1 } };
export const VALIDATION_ERROR = {
  error: { code: 1, message: 1, requestId: 1, details: { validationErrors: [{ field: 1, location: 1, expected: [''] }] } },
};

export const OFFSET_PAGINATION = { limit: 1, offset: 1, total: 1 };

// --- Specification: "TikTok library item"; the detail adds links and source.
export const TIKTOK_ITEM = {
  id: 1,
  tiktokId: 1,
  type: 1,
  status: 1,
  isPinned: 1,
  publishedAt: 1,
  createdAt: 1,
  updatedAt: 1,
  indexedAt: 1,
  daysRunning: 1,
  media: { type: 1, thumbnailUrl: 1, mediaUrl: 1, videoUrl: 1, imageUrls: [''], medias: [{ type: 1, url: 1, order: 1 }], durationSec: 1, mediaCount: 1, imageCount: 1 },
  content: { description: 1, language: 1, category: 1, hashtags: [''], music: { id: 1, title: 1, author: 1 } },
  metrics: {
    views: 1, likes: 1, comments: 1, saves: 1, shares: 1, reposts: 1, engagementRate: 1, rank: 1, rankPercent: 1, relevanceScore: 1,
    deltaRank3d: 1, deltaRank7d: 1, deltaRank14d: 1, deltaRank30d: 1,
  },
  profile: {
    id: 1, handle: 1, name: 1, avatarUrl: 1, bio: 1, bioUrl: 1, accountType: 1, secUid: 1, followers: 1, following: 1, totalTikToks: 1,
    newTikToks: 1, percentAds: 1, views: 1, likes: 1, pageCreation: 1,
  },
  shop: { id: 1, domain: 1, name: 1, logoUrl: 1, faviconUrl: 1, countryCode: 1, monthlyVisits: 1, trafficGrowth30d: 1, productsCount: 1, googleCategoryIds: [1] },
  pin: { isCurrent: 1, firstPinnedAt: 1, lastPinnedAt: 1, lastUnpinnedAt: 1 },
  pageSnapshot: { recordedAt: 1, adsCount: 1, organicCount: 1, totalTikToks: 1, dailyViews: 1, dailyLikes: 1, dailyFollowers: 1 },
};
export const TIKTOK_ITEM_DETAIL = {
  ...TIKTOK_ITEM,
  links: { tiktokUrl: 1, profileUrl: 1 },
  source: { network: 1, sourceType: 1, tiktokPageId: 1, websiteId: 1, domain: 1 },
  provenance: { source: 1, firstFetchedAt: 1, lastFetchedAt: 1 },
};

// --- gaps-filled "Google Ads": the row, the network/country facet value and the category facet item.
export const GOOGLE_AD = {
  id: 1,
  googleAdId: 1,
  status: 1,
  network: 1,
  firstSeenAt: 1,
  lastSeenAt: 1,
  daysRunning: 1,
  media: { type: 1, url: 1, format: 1 },
  advertiser: { id: 1, name: 1, shopName: 1, domain: 1, websiteId: 1, logoUrl: 1, liveAds: { all: 1, search: 1, shopping: 1, maps: 1, youtube: 1, other: 1 } },
  reach: { value: 1, lowerBound: 1, upperBound: 1 },
  audience: { mainCountry: 1, countries: [{ countryCode: 1, share: 1 }], remarketing: 1, interest: 1 },
};
export const GOOGLE_FACET_VALUE = { value: 1, label: 1, adsCount: 1 };
export const GOOGLE_CATEGORY_FACET = { id: 1, name: 1, path: 1, parentId: 1, advertiserUsageCount: 1 };

// --- Specification: "Advertiser" (summary in lists, detail on its own) and gaps-filled's advertisers list meta.
const ADVERTISER_RECORD = { id: 1, platform: 1, facebookPageId: 1, name: 1, logoUrl: 1, profile: { likes: 1, instagramFollowers: 1, createdAt: 1 } };
export const ADVERTISER_SUMMARY = {
  ...ADVERTISER_RECORD,
  advertising: { activeAds: 1, reach30d: 1 },
  lastAds: [{ id: 1, mediaUrl: 1, thumbnailUrl: 1 }],
  mainLandingPages: [{ landingPage: 1, screenshotUrl: 1 }],
};
export const ADVERTISER_DETAIL = {
  ...ADVERTISER_RECORD,
  linkedShops: [{ shopId: 1, domain: 1, name: 1, isPrimary: 1 }],
  advertising: { activeAds: 1, reach30d: 1, countryDistribution: [{ countryCode: 1, share: 1 }] },
  lastAds: [AD_SUMMARY],
};

// --- Specification: "Lookup" (result and meta) and the Facebook-page/shop relation.
export const LOOKUP_RESULT = {
  type: 1, matchType: 1, matchField: 1, score: 1,
  brandtracker: { id: 1, name: 1, facebookPageId: 1 },
  advertiser: { id: 1, name: 1, facebookPageId: 1 },
  shop: { id: 1, domain: 1, name: 1 },
  signals: { activeAds: 1, liveAdsCount: 1, reach30d: 1, totalReach: 1, monthlyVisits: 1, workspaceAddedAt: 1, hasBrandtracker: 1, hasAdvertiser: 1, hasShop: 1 },
};
export const LOOKUP_META = { q: 1, type: 1, limit: 1, returned: 1, partial: 1, warnings: [{ code: 1, type: 1, message: 1 }] };
export const FACEBOOK_SHOP_ENTRY = { id: 1, domain: 1, name: 1, rank: 1, isMainRelation: 1, isPrimary: 1, trafficNumber: 1, profilePhotoUrl: 1 };

// --- gaps-filled "Facets": one envelope, five item shapes.
export const FACET_META = { valueType: 1, filterUsage: [{ resource: 1, fields: [''], valueField: 1 }] };
export const FACET_ITEMS = {
  categories: { id: 1, name: 1, path: 1, parentId: 1, usageCount: 1 },
  'shopify-apps': { id: 1, label: 1, iconUrl: 1, shopifyUrl: 1, usageCount: 1 },
  technologies: { slug: 1, id: 1, name: 1, iconUrl: 1, categories: [''], usageCount: 1 },
  pixels: { id: 1, slug: 1, name: 1, iconUrl: 1, categories: [''], usageCount: 1 },
  themes: { id: 1, name: 1, usageCount: 1 },
};
// --- Specification: "Product" (cursor lists), and this project's product facets and image-search rows.
export const PRODUCT = {
  id: 1, shopifyId: 1, title: 1, description: 1, url: 1, handle: 1, imageUrl: 1, publishedAt: 1,
  price: { amount: 1, currency: 1, amountUsd: 1, compareAtAmount: 1, onSale: 1, discountPercent: 1, isSubscription: 1, promoTypes: [''] },
  reviews: { rating: 1, count: 1 },
  bestSellerRank: { position: 1, percentile: 1 },
  optionNames: [''],
  sales: { dailyRevenueUsd: 1, dailyRevenueRangeUsd: { min: 1, mean: 1, max: 1 }, monthlyRevenueUsd: 1, dailyUnitsSold: 1, monthlyUnitsSold: 1 },
  ads: { active: 1, total: 1, launched30d: 1, weekOverWeekGrowth: 1, adShare: 1, advertisersCount: 1, hasPartnershipAds: 1, previewUrls: [''], activeByCountry: [{ countryCode: 1, activeAds: 1 }], sellingCountries: [''] },
  euMetrics: { locked: 1, spendUsd: 1, dailySpendUsd: 1, reach: 1, spendShare: 1, reachByCountry: 1 },
  weeklyHistory: [{ from: 1, to: 1, activeAds: 1, euDailySpendUsd: 1, euDailyReach: 1 }],
  shop: { id: 1, domain: 1, name: 1, avatarUrl: 1, countryCode: 1, currency: 1, productsCount: 1, monthlyVisits: 1, monthlyRevenueUsd: 1, createdAt: 1, categoryIds: [1] },
};
export const CURSOR_PAGINATION = { limit: 1, total: 1, totalRelation: 1, nextCursor: 1 };
export const PRODUCT_FACET_VALUE = { value: 1, label: 1, productsCount: 1 };
export const IMAGE_SEARCH_META = { searchId: 1, expiresAt: 1 };
