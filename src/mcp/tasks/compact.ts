// The few fields of the routes' rows a task answers with: an agent gets the gist of an ad or a shop in a few
// hundred characters, and the ids to ask the route tools for the rest.

/** Longest ad text a task repeats. */
const TEXT_CHARS = 200;

export type AdRow = {
  id: string;
  status: string;
  firstSeenAt: string;
  daysRunning: number;
  media: { type: string; thumbnailUrl: string | null };
  content: { title: string | null; body: string | null; callToAction: string | null; landingPageUrl: string | null };
  metrics: { reach: number; aggregatedReach: number; duplicates: number };
  rank?: { currentRank: number | null; rankDelta: number | null };
};

export type ShopRow = {
  id: string;
  domain: string;
  name: string;
  profile: { countryCode: string | null; currency: string | null };
  catalog: { productsCount: number; mainCategory: string | null };
  traffic: { monthlyVisits: number; growth30d: number | null };
  advertising: { activeAds: number };
};

export const clip = (text: string | null, chars = TEXT_CHARS) => (text && text.length > chars ? `${text.slice(0, chars - 1)}…` : text);

export function compactAd(ad: AdRow) {
  return {
    id: ad.id,
    status: ad.status,
    format: ad.media.type,
    firstSeenAt: ad.firstSeenAt,
    daysRunning: ad.daysRunning,
    reach: ad.metrics.aggregatedReach,
    duplicates: ad.metrics.duplicates,
    text: clip(ad.content.body ?? ad.content.title),
    callToAction: ad.content.callToAction,
    landingPageUrl: ad.content.landingPageUrl,
    thumbnailUrl: ad.media.thumbnailUrl,
  };
}

export function compactShop(shop: ShopRow) {
  return {
    id: shop.id,
    domain: shop.domain,
    name: shop.name,
    countryCode: shop.profile.countryCode,
    currency: shop.profile.currency,
    mainCategory: shop.catalog.mainCategory,
    productsCount: shop.catalog.productsCount,
    monthlyVisits: shop.traffic.monthlyVisits,
    trafficGrowth30d: shop.traffic.growth30d,
    activeAds: shop.advertising.activeAds,
  };
}

/** The next call that continues a list a task cut, when more rows exist than it showed. */
export function continuation(tool: string, args: Record<string, unknown>, shown: number, total: number) {
  return total > shown ? { tool, arguments: args, remaining: total - shown } : undefined;
}
