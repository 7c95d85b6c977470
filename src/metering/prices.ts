/**
 * What each root field costs, keyed by GraphQL field, so GraphQL pays exactly what REST pays.
 * Every root field must have an entry: the schema is not built without it (metering/pothos-plugin.ts). Source: ../shared/spec/prices.md.
 *
 * - `free`: never charged.
 * - `perRow`: one credit per returned row. A call reserves its maximum before it runs (the `limitArg`
 *   argument, or `defaultLimit`) and settles to the rows returned: the length of the result's `rowsAt`
 *   list (`data` for page lists), or of the result itself when `rowsAt` is omitted.
 * - `perItem`: one credit when the field returns an item (null or not found costs nothing).
 */
export type Price =
  | { kind: 'free' }
  | { kind: 'perRow'; limitArg: string; defaultLimit: number; rowsAt?: string }
  | { kind: 'perItem' };

export type FieldName = `Query.${string}` | `Mutation.${string}`;

const free: Price = { kind: 'free' };

export const PRICES: Record<FieldName, Price> = {
  'Query.apiInfo': free,
  'Query.health': free,
  'Query.systemFreshness': free,
  'Query.me': free,
  'Query.workspace': free,
  'Query.usage': free,
  'Query.ads': free,
  'Query.adsQuery': free,
  'Query.ad': free,
  'Query.adReachHistory': free,
  'Query.adMediaUrl': free,
  'Query.adLandingPages': { kind: 'perRow', limitArg: 'limit', defaultLimit: 25, rowsAt: 'data' },
  'Query.tiktokLibrary': { kind: 'perRow', limitArg: 'limit', defaultLimit: 25, rowsAt: 'data' },
  'Query.tiktokLibraryQuery': { kind: 'perRow', limitArg: 'limit', defaultLimit: 25, rowsAt: 'data' },
  'Query.tiktokLibraryItem': { kind: 'perItem' },
  'Query.shopTiktokLibrary': { kind: 'perRow', limitArg: 'limit', defaultLimit: 25, rowsAt: 'data' },
  'Query.googleAdsQuery': { kind: 'perRow', limitArg: 'limit', defaultLimit: 25, rowsAt: 'data' },
  'Query.googleAdsNetworkFacets': free,
  'Query.googleAdsCountryFacets': free,
  'Query.googleAdsCategoryFacets': free,
  'Query.categoryFacets': free,
  'Query.shopifyAppFacets': free,
  'Query.technologyFacets': free,
  'Query.pixelFacets': free,
  'Query.themeFacets': free,
  'Query.lookup': free,
  'Query.lookupFacebookShop': free,
  'Query.advertisers': free,
  'Query.advertisersQuery': free,
  'Query.advertiser': free,
  'Query.advertiserAds': free,
  'Mutation.adShare': free,
  'Query.shops': free,
  'Query.shopsQuery': free,
  'Query.shopSimilar': free,
  'Query.shop': free,
  'Query.shopSalesHistory': free,
  'Query.shopAdvertisers': free,
  'Query.shopSocialsHistory': free,
  'Query.shopProducts': free,
  'Query.shopEmails': free,
  'Query.shopEmailStats': free,
  'Query.emailsQuery': free,
  'Query.email': free,
  'Query.emailHtml': free,
  // Products: not documented by the reference (prices.md); charged like the other market lists, one credit per returned row.
  'Query.products': { kind: 'perRow', limitArg: 'limit', defaultLimit: 25, rowsAt: 'data' },
  'Query.productsQuery': { kind: 'perRow', limitArg: 'limit', defaultLimit: 25, rowsAt: 'data' },
  'Query.productFacets': free,
  // Image searches: not documented either; one credit per returned result, continuation pages included.
  'Query.productsImageSearch': { kind: 'perRow', limitArg: 'limit', defaultLimit: 20, rowsAt: 'data' },
  'Query.shopsImageSearch': { kind: 'perRow', limitArg: 'limit', defaultLimit: 20, rowsAt: 'data' },
  'Query.brandtrackers': free,
  'Query.brandtracker': free,
  'Query.brandtrackerFolders': free,
  'Query.brandtrackerFolderBrandtrackers': free,
  'Query.brandtrackerSnapshots': free,
  'Query.brandtrackerMediaMix': free,
  'Query.brandtrackerScalingAds': free,
  'Query.brandtrackerAdRank': free,
  'Query.brandtrackerLandingPagesSimple': free,
  'Query.brandtrackerCreatives': free,
  'Query.brandtrackerPartners': free,
  'Query.brandtrackerDemography': free,
  'Query.brandtrackerAds': free,
  'Query.brandtrackerPartnershipAds': free,
  'Query.brandtrackerPartnershipAdsCount': free,
  'Query.brandtrackerHooks': free,
  'Query.brandtrackerTranscripts': free,
  'Query.brandtrackerHeadlines': free,
  'Query.brandtrackerAdCopies': free,
  'Query.brandtrackerTimeSeries': free,
  'Query.brandtrackerAdCopyEvolution': free,
  'Query.brandtrackerHeadlineEvolution': free,
  'Query.brandtrackerLandingPageEvolution': free,
  'Query.brandtrackerTimeline': free,
  'Query.brandtrackerTimelineMetadata': free,
  'Query.brandtrackerTesting': free,
  'Query.brandtrackerOverview': free,
  // A brand's changes (issue #37): free, as the per-brand analytics and the advertiser and shop routes beside them.
  'Query.brandtrackerChanges': free,
  'Query.advertiserChanges': free,
  'Query.shopChanges': free,
  'Query.brandtrackerLandingPages': free,
  'Query.brandtrackerTopAds': free,
  'Mutation.brandtrackerCreate': free,
  'Mutation.brandtrackerUpdate': free,
  'Mutation.brandtrackerDelete': free,
  'Mutation.brandtrackerFolderCreate': free,
  'Mutation.brandtrackerFolderRename': free,
  'Mutation.brandtrackerFolderDelete': free,
  'Mutation.brandtrackerLinksMove': free,
  'Mutation.brandtrackerLinksDelete': free,
  'Query.workspaceFolders': free,
  'Query.workspaceTopAds': { kind: 'perRow', limitArg: 'limit', defaultLimit: 20, rowsAt: 'data' },
  'Query.workspaceHooks': { kind: 'perRow', limitArg: 'limit', defaultLimit: 20, rowsAt: 'data' },
  'Query.workspaceAdCopies': { kind: 'perRow', limitArg: 'limit', defaultLimit: 20, rowsAt: 'data' },
  'Query.workspaceLandingPages': { kind: 'perRow', limitArg: 'limit', defaultLimit: 20, rowsAt: 'data' },
  'Query.workspaceScalingAds': { kind: 'perRow', limitArg: 'limit', defaultLimit: 20, rowsAt: 'data' },
  'Query.workspaceMediaMix': { kind: 'perRow', limitArg: 'limit', defaultLimit: 20, rowsAt: 'data' },
  // Boards and favorites: free (prices.md: every favorites route; the boards routes are not documented there).
  'Query.boards': free,
  'Mutation.boardCreate': free,
  'Query.board': free,
  'Mutation.boardUpdate': free,
  'Mutation.boardArchive': free,
  'Mutation.boardMove': free,
  'Mutation.boardRestore': free,
  'Query.boardItems': free,
  'Mutation.boardItemAdd': free,
  'Mutation.boardItemRemove': free,
  'Mutation.boardShare': free,
  'Mutation.boardShareRevoke': free,
  'Query.favoriteAds': free,
  'Mutation.favoriteAdAdd': free,
  'Mutation.favoriteAdRemove': free,
  'Mutation.favoriteAdMove': free,
  'Mutation.favoriteAdDelete': free,
  'Query.favoriteAdFolders': free,
  'Mutation.favoriteAdFolderCreate': free,
  'Mutation.favoriteAdFoldersReorder': free,
  'Mutation.favoriteAdFolderUpdate': free,
  'Mutation.favoriteAdFolderDelete': free,
  'Mutation.favoriteAdFolderVisibility': free,
  'Mutation.favoriteAdFolderShare': free,
  'Query.favoriteShops': free,
  'Mutation.favoriteShopAdd': free,
  'Mutation.favoriteShopRemove': free,
  'Mutation.favoriteShopMove': free,
  'Mutation.favoriteShopDelete': free,
  'Query.favoriteShopFolders': free,
  'Mutation.favoriteShopFolderCreate': free,
  'Mutation.favoriteShopFolderUpdate': free,
  'Mutation.favoriteShopFolderDelete': free,
  'Mutation.favoriteShopFolderVisibility': free,
  'Query.favoriteEmails': free,
  'Mutation.favoriteEmailAdd': free,
  'Mutation.favoriteEmailRemove': free,
  'Mutation.favoriteEmailMove': free,
  'Mutation.favoriteEmailDelete': free,
  'Query.favoriteEmailFolders': free,
  'Mutation.favoriteEmailFolderCreate': free,
  'Mutation.favoriteEmailFoldersReorder': free,
  'Mutation.favoriteEmailFolderUpdate': free,
  'Mutation.favoriteEmailFolderDelete': free,
  'Mutation.favoriteEmailFolderVisibility': free,
  // The feed: one credit per returned event, the rate of every metered list (TikTok, Google Ads, products, the
  // workspace analytics); an empty page is free. The live streams charge the same per delivered event.
  'Query.events': { kind: 'perRow', limitArg: 'limit', defaultLimit: 25, rowsAt: 'data' },
  // Webhooks: free to manage (issue #36), their log and replays included; the deliveries themselves cost nothing.
  'Query.webhooks': free,
  'Mutation.webhookCreate': free,
  'Query.webhook': free,
  'Mutation.webhookUpdate': free,
  'Mutation.webhookDelete': free,
  'Mutation.webhookSecretRotate': free,
  'Mutation.webhookTest': free,
  'Query.webhookDeliveries': free,
  'Mutation.webhookDeliveryReplay': free,
  // Saved searches: free to manage (issue #36); the runs of their lists (the baseline, the evaluations after each write
  // of market data) are the server's own work and charge nothing.
  // Exports: free to manage (issue #37); the job charges the rows it writes at the route's own per-row price.
  'Query.exports': free,
  'Query.export': free,
  'Query.exportEstimate': free,
  'Mutation.exportCreate': free,
  'Mutation.exportCancel': free,
  'Query.savedSearches': free,
  'Mutation.savedSearchCreate': free,
  'Query.savedSearch': free,
  'Mutation.savedSearchUpdate': free,
  'Mutation.savedSearchDelete': free,
};

/** The credits a call holds before it runs: its maximum. */
export function reserveFor(price: Price, args: Record<string, unknown>): number {
  if (price.kind === 'free') return 0;
  if (price.kind === 'perItem') return 1;
  const limit = args[price.limitArg];
  return typeof limit === 'number' ? limit : price.defaultLimit;
}

/** The credits a call costs for what it returned. */
export function costOf(price: Price, result: unknown): { rows: number; cost: number } {
  if (price.kind === 'free') return { rows: 0, cost: 0 };
  if (price.kind === 'perItem') return result == null ? { rows: 0, cost: 0 } : { rows: 1, cost: 1 };
  const list = price.rowsAt ? (result as Record<string, unknown> | null)?.[price.rowsAt] : result;
  const rows = Array.isArray(list) ? list.length : 0;
  return { rows, cost: rows };
}

export function priceOf(field: string): Price | undefined {
  return PRICES[field as FieldName];
}
