/**
 * The /v1 route table: each REST route names the GraphQL root field it runs and the envelope its result
 * is put in. Arguments come from the path (`:name`), the query string (GET) or the JSON body (POST),
 * matched to the field's arguments by name. Nothing here re-implements a resolver.
 */
export type Envelope =
  /** `{ requestId, data }` */
  | 'single'
  /** `{ requestId, ...result }`: lists (`data` + `pagination`) and top-level responses (me, workspace, usage) */
  | 'spread';

export type RestRoute = {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: string;
  field: `Query.${string}` | `Mutation.${string}`;
  envelope: Envelope;
  /** Keys dropped when null, for fields the specification shows only when present (`data.resolvedFrom`, `data[].collationId`). */
  omitNull?: string[];
  status?: 200 | 201;
  /**
   * Where an argument comes from when not the method's default (GET and DELETE: the query string; POST and
   * PATCH: the JSON body): `scope` in the query string of a PATCH, `mode` in the JSON body of a DELETE.
   */
  argsIn?: Record<string, 'query-string' | 'body'>;
  /** Body arguments where an explicit null means something (`parentId: null` moves a folder to the root). */
  nullArgs?: string[];
  /** The field a dry run (`?dryRun=true`) runs instead of the generic estimate, with the same arguments (an export's price counts its rows). */
  dryRunField?: `Query.${string}`;
  tags: string[];
};

// Where a route's arguments come from: its path, its query string or its JSON body.

export type Location = 'path' | 'query-string' | 'body';
/** `argument` is empty when the whole location is at fault (a body that is not a JSON object). */
export type ParamViolation = { argument: string; location: Location; expected: string[] };

/** Most values a list may carry in a query string (the query parser SOFA uses stops at 20). */
export const MAX_QUERY_LIST = 20;

/** Where each argument of a route comes from, for naming fields in errors raised by resolvers. */
export function locationOf(route: RestRoute, argument: string): Location {
  if (route.path.split('/').includes(`:${argument}`)) return 'path';
  const declared = route.argsIn?.[argument];
  if (declared) return declared;
  return route.method === 'GET' || route.method === 'DELETE' ? 'query-string' : 'body';
}

/** A brand's changes (issue #37): the Ad summaries of its sections show collationId only when present, as every ad list. */
const CHANGES_OMIT_NULL = ['adsStarted', 'adsStopped', 'copyChanges', 'hookChanges', 'landingPageChanges', 'rankMoves'].map((section) => `${section}.items[].ad.collationId`);

export const routes: RestRoute[] = [
  { method: 'GET', path: '/', field: 'Query.apiInfo', envelope: 'spread', tags: ['System'] },
  { method: 'GET', path: '/health', field: 'Query.health', envelope: 'spread', tags: ['System'] },
  { method: 'GET', path: '/system/freshness', field: 'Query.systemFreshness', envelope: 'spread', tags: ['System'] },

  { method: 'GET', path: '/me', field: 'Query.me', envelope: 'spread', tags: ['Identity'] },
  { method: 'GET', path: '/workspace', field: 'Query.workspace', envelope: 'spread', tags: ['Identity'] },
  { method: 'GET', path: '/usage', field: 'Query.usage', envelope: 'spread', tags: ['Identity'] },

  { method: 'GET', path: '/ads', field: 'Query.ads', envelope: 'spread', omitNull: ['data[].collationId'], tags: ['Ads'] },
  { method: 'POST', path: '/ads/query', field: 'Query.adsQuery', envelope: 'spread', omitNull: ['data[].collationId'], tags: ['Ads'] },
  { method: 'GET', path: '/ads/facets/landing-pages', field: 'Query.adLandingPages', envelope: 'spread', tags: ['Ads'] },
  { method: 'GET', path: '/ads/:adId', field: 'Query.ad', envelope: 'single', omitNull: ['collationId', 'resolvedFrom'], tags: ['Ads'] },
  { method: 'GET', path: '/ads/:adId/reach-history', field: 'Query.adReachHistory', envelope: 'single', tags: ['Ads'] },
  { method: 'GET', path: '/ads/:adId/media-url', field: 'Query.adMediaUrl', envelope: 'single', tags: ['Ads'] },
  { method: 'POST', path: '/ads/:adId/share', field: 'Mutation.adShare', envelope: 'single', tags: ['Ads'] },

  { method: 'GET', path: '/facets/categories', field: 'Query.categoryFacets', envelope: 'spread', tags: ['Facets'] },
  { method: 'GET', path: '/facets/shopify-apps', field: 'Query.shopifyAppFacets', envelope: 'spread', tags: ['Facets'] },
  { method: 'GET', path: '/facets/technologies', field: 'Query.technologyFacets', envelope: 'spread', tags: ['Facets'] },
  { method: 'GET', path: '/facets/pixels', field: 'Query.pixelFacets', envelope: 'spread', tags: ['Facets'] },
  { method: 'GET', path: '/facets/themes', field: 'Query.themeFacets', envelope: 'spread', tags: ['Facets'] },

  { method: 'GET', path: '/lookup', field: 'Query.lookup', envelope: 'spread', tags: ['Discovery'] },
  { method: 'GET', path: '/lookup/facebook-shop', field: 'Query.lookupFacebookShop', envelope: 'spread', tags: ['Discovery'] },

  { method: 'GET', path: '/advertisers', field: 'Query.advertisers', envelope: 'spread', tags: ['Advertisers'] },
  { method: 'POST', path: '/advertisers/query', field: 'Query.advertisersQuery', envelope: 'spread', tags: ['Advertisers'] },
  { method: 'GET', path: '/advertisers/:advertiserId', field: 'Query.advertiser', envelope: 'single', omitNull: ['lastAds[].collationId'], tags: ['Advertisers'] },
  { method: 'GET', path: '/advertisers/:advertiserId/ads', field: 'Query.advertiserAds', envelope: 'spread', omitNull: ['data[].collationId'], tags: ['Advertisers'] },
  { method: 'GET', path: '/advertisers/:advertiserId/changes', field: 'Query.advertiserChanges', envelope: 'single', omitNull: CHANGES_OMIT_NULL, tags: ['Advertisers'] },

  { method: 'GET', path: '/tiktok/library', field: 'Query.tiktokLibrary', envelope: 'spread', tags: ['TikTok'] },
  { method: 'POST', path: '/tiktok/library/query', field: 'Query.tiktokLibraryQuery', envelope: 'spread', tags: ['TikTok'] },
  { method: 'GET', path: '/tiktok/library/:itemId', field: 'Query.tiktokLibraryItem', envelope: 'single', tags: ['TikTok'] },
  { method: 'GET', path: '/shops/:shopId/tiktok/library', field: 'Query.shopTiktokLibrary', envelope: 'spread', tags: ['TikTok'] },

  { method: 'GET', path: '/shops', field: 'Query.shops', envelope: 'spread', omitNull: ['data[].tiktok'], tags: ['Shops'] },
  { method: 'POST', path: '/shops/query', field: 'Query.shopsQuery', envelope: 'spread', omitNull: ['data[].tiktok'], tags: ['Shops'] },
  { method: 'GET', path: '/shops/:identifier/similar', field: 'Query.shopSimilar', envelope: 'spread', omitNull: ['data[].shop.tiktok'], tags: ['Shops'] },
  { method: 'GET', path: '/shops/:shopId', field: 'Query.shop', envelope: 'single', omitNull: ['tiktok', 'similarShops[].shop.tiktok'], tags: ['Shops'] },
  { method: 'GET', path: '/shops/:shopId/sales/history', field: 'Query.shopSalesHistory', envelope: 'single', tags: ['Shops'] },
  { method: 'GET', path: '/shops/:shopId/advertisers', field: 'Query.shopAdvertisers', envelope: 'single', tags: ['Shops'] },
  { method: 'GET', path: '/shops/:shopId/socials/history', field: 'Query.shopSocialsHistory', envelope: 'single', tags: ['Shops'] },
  { method: 'GET', path: '/shops/:shopId/products', field: 'Query.shopProducts', envelope: 'spread', tags: ['Shops'] },
  { method: 'GET', path: '/shops/:shopId/changes', field: 'Query.shopChanges', envelope: 'single', tags: ['Shops'] },
  { method: 'GET', path: '/shops/:shopId/emails', field: 'Query.shopEmails', envelope: 'spread', tags: ['Emails'] },
  { method: 'GET', path: '/shops/:shopId/emails/stats', field: 'Query.shopEmailStats', envelope: 'single', tags: ['Emails'] },

  { method: 'POST', path: '/emails/query', field: 'Query.emailsQuery', envelope: 'spread', tags: ['Emails'] },
  { method: 'GET', path: '/emails/:emailId', field: 'Query.email', envelope: 'single', tags: ['Emails'] },
  { method: 'GET', path: '/emails/:emailId/html', field: 'Query.emailHtml', envelope: 'single', tags: ['Emails'] },

  { method: 'POST', path: '/google-ads/query', field: 'Query.googleAdsQuery', envelope: 'spread', tags: ['Google Ads'] },
  { method: 'GET', path: '/google-ads/facets/networks', field: 'Query.googleAdsNetworkFacets', envelope: 'spread', tags: ['Google Ads'] },
  { method: 'GET', path: '/google-ads/facets/countries', field: 'Query.googleAdsCountryFacets', envelope: 'spread', tags: ['Google Ads'] },
  { method: 'GET', path: '/products', field: 'Query.products', envelope: 'spread', tags: ['Products'] },
  { method: 'POST', path: '/products/query', field: 'Query.productsQuery', envelope: 'spread', tags: ['Products'] },
  { method: 'GET', path: '/products/facets', field: 'Query.productFacets', envelope: 'single', tags: ['Products'] },
  { method: 'POST', path: '/products/image-search', field: 'Query.productsImageSearch', envelope: 'spread', tags: ['Products'] },
  { method: 'POST', path: '/shops/image-search', field: 'Query.shopsImageSearch', envelope: 'spread', tags: ['Shops'] },

  { method: 'GET', path: '/google-ads/facets/categories', field: 'Query.googleAdsCategoryFacets', envelope: 'spread', tags: ['Google Ads'] },

  { method: 'GET', path: '/brandtrackers', field: 'Query.brandtrackers', envelope: 'spread', tags: ['Brandtrackers'] },
  { method: 'POST', path: '/brandtrackers', field: 'Mutation.brandtrackerCreate', envelope: 'spread', tags: ['Brandtrackers'] },
  { method: 'GET', path: '/brandtrackers/folders', field: 'Query.brandtrackerFolders', envelope: 'single', tags: ['Brandtrackers'] },
  { method: 'POST', path: '/brandtrackers/folders', field: 'Mutation.brandtrackerFolderCreate', envelope: 'single', tags: ['Brandtrackers'] },
  { method: 'PATCH', path: '/brandtrackers/folders/:folderId', field: 'Mutation.brandtrackerFolderRename', envelope: 'single', tags: ['Brandtrackers'] },
  { method: 'DELETE', path: '/brandtrackers/folders/:folderId', field: 'Mutation.brandtrackerFolderDelete', envelope: 'single', tags: ['Brandtrackers'] },
  { method: 'GET', path: '/brandtrackers/folders/:folderId/brandtrackers', field: 'Query.brandtrackerFolderBrandtrackers', envelope: 'spread', tags: ['Brandtrackers'] },
  { method: 'PATCH', path: '/brandtrackers/workspace-links', field: 'Mutation.brandtrackerLinksMove', envelope: 'single', tags: ['Brandtrackers'] },
  { method: 'DELETE', path: '/brandtrackers/workspace-links', field: 'Mutation.brandtrackerLinksDelete', envelope: 'single', tags: ['Brandtrackers'] },
  { method: 'GET', path: '/brandtrackers/:brandtrackerId', field: 'Query.brandtracker', envelope: 'single', tags: ['Brandtrackers'] },
  { method: 'PATCH', path: '/brandtrackers/:brandtrackerId', field: 'Mutation.brandtrackerUpdate', envelope: 'single', tags: ['Brandtrackers'] },
  { method: 'DELETE', path: '/brandtrackers/:brandtrackerId', field: 'Mutation.brandtrackerDelete', envelope: 'single', tags: ['Brandtrackers'] },
  { method: 'GET', path: '/brandtrackers/:brandtrackerId/snapshots', field: 'Query.brandtrackerSnapshots', envelope: 'spread', tags: ['Brandtrackers'] },
  { method: 'GET', path: '/brandtrackers/:brandtrackerId/media-mix', field: 'Query.brandtrackerMediaMix', envelope: 'spread', tags: ['Brandtrackers'] },
  { method: 'GET', path: '/brandtrackers/:brandtrackerId/scaling-ads', field: 'Query.brandtrackerScalingAds', envelope: 'spread', omitNull: ['data[].ad.collationId'], tags: ['Brandtrackers'] },
  { method: 'GET', path: '/brandtrackers/:brandtrackerId/ad-rank', field: 'Query.brandtrackerAdRank', envelope: 'spread', omitNull: ['data[].ad.collationId'], tags: ['Brandtrackers'] },
  { method: 'GET', path: '/brandtrackers/:brandtrackerId/landing-pages/simple', field: 'Query.brandtrackerLandingPagesSimple', envelope: 'spread', tags: ['Brandtrackers'] },
  { method: 'GET', path: '/brandtrackers/:brandtrackerId/creatives', field: 'Query.brandtrackerCreatives', envelope: 'spread', tags: ['Brandtrackers'] },
  { method: 'GET', path: '/brandtrackers/:brandtrackerId/partners', field: 'Query.brandtrackerPartners', envelope: 'spread', tags: ['Brandtrackers'] },
  { method: 'GET', path: '/brandtrackers/:brandtrackerId/demography', field: 'Query.brandtrackerDemography', envelope: 'spread', tags: ['Brandtrackers'] },
  { method: 'GET', path: '/brandtrackers/:brandtrackerId/ads', field: 'Query.brandtrackerAds', envelope: 'spread', omitNull: ['data[].collationId'], tags: ['Brandtrackers'] },
  { method: 'GET', path: '/brandtrackers/:brandtrackerId/partnership-ads', field: 'Query.brandtrackerPartnershipAds', envelope: 'spread', omitNull: ['data[].collationId'], tags: ['Brandtrackers'] },
  { method: 'GET', path: '/brandtrackers/:brandtrackerId/partnership-ads/count', field: 'Query.brandtrackerPartnershipAdsCount', envelope: 'single', tags: ['Brandtrackers'] },
  { method: 'GET', path: '/brandtrackers/:brandtrackerId/hooks', field: 'Query.brandtrackerHooks', envelope: 'spread', tags: ['Brandtrackers'] },
  { method: 'GET', path: '/brandtrackers/:brandtrackerId/transcripts', field: 'Query.brandtrackerTranscripts', envelope: 'spread', tags: ['Brandtrackers'] },
  { method: 'GET', path: '/brandtrackers/:brandtrackerId/headlines', field: 'Query.brandtrackerHeadlines', envelope: 'spread', tags: ['Brandtrackers'] },
  { method: 'GET', path: '/brandtrackers/:brandtrackerId/ad-copies', field: 'Query.brandtrackerAdCopies', envelope: 'spread', tags: ['Brandtrackers'] },
  { method: 'GET', path: '/brandtrackers/:brandtrackerId/time-series', field: 'Query.brandtrackerTimeSeries', envelope: 'spread', tags: ['Brandtrackers'] },
  { method: 'GET', path: '/brandtrackers/:brandtrackerId/ad-copy-evolution', field: 'Query.brandtrackerAdCopyEvolution', envelope: 'spread', tags: ['Brandtrackers'] },
  { method: 'GET', path: '/brandtrackers/:brandtrackerId/headline-evolution', field: 'Query.brandtrackerHeadlineEvolution', envelope: 'spread', tags: ['Brandtrackers'] },
  { method: 'GET', path: '/brandtrackers/:brandtrackerId/landing-page-evolution', field: 'Query.brandtrackerLandingPageEvolution', envelope: 'spread', tags: ['Brandtrackers'] },
  { method: 'GET', path: '/brandtrackers/:brandtrackerId/timeline', field: 'Query.brandtrackerTimeline', envelope: 'spread', omitNull: ['data[].collationId'], tags: ['Brandtrackers'] },
  { method: 'GET', path: '/brandtrackers/:brandtrackerId/timeline/metadata', field: 'Query.brandtrackerTimelineMetadata', envelope: 'spread', tags: ['Brandtrackers'] },
  { method: 'GET', path: '/brandtrackers/:brandtrackerId/landing-pages', field: 'Query.brandtrackerLandingPages', envelope: 'spread', tags: ['Brandtrackers'] },
  { method: 'GET', path: '/brandtrackers/:brandtrackerId/overview', field: 'Query.brandtrackerOverview', envelope: 'spread', omitNull: ['data.topAds.data[].ad.collationId', 'data.adsPreview.data[].collationId'], tags: ['Brandtrackers'] },
  { method: 'GET', path: '/brandtrackers/:brandtrackerId/testing', field: 'Query.brandtrackerTesting', envelope: 'spread', omitNull: ['data[].ads[].collationId'], tags: ['Brandtrackers'] },
  { method: 'GET', path: '/brandtrackers/:brandtrackerId/top-ads', field: 'Query.brandtrackerTopAds', envelope: 'spread', omitNull: ['data[].ad.collationId', 'meta'], tags: ['Brandtrackers'] },
  { method: 'GET', path: '/brandtrackers/:brandtrackerId/changes', field: 'Query.brandtrackerChanges', envelope: 'single', omitNull: CHANGES_OMIT_NULL, tags: ['Brandtrackers'] },

  { method: 'GET', path: '/workspace/folders', field: 'Query.workspaceFolders', envelope: 'single', tags: ['Workspace'] },
  { method: 'GET', path: '/workspace/top-ads', field: 'Query.workspaceTopAds', envelope: 'spread', omitNull: ['data[].ad.collationId', 'meta'], tags: ['Workspace'] },
  { method: 'GET', path: '/workspace/hooks', field: 'Query.workspaceHooks', envelope: 'spread', tags: ['Workspace'] },
  { method: 'GET', path: '/workspace/ad-copies', field: 'Query.workspaceAdCopies', envelope: 'spread', tags: ['Workspace'] },
  { method: 'GET', path: '/workspace/landing-pages', field: 'Query.workspaceLandingPages', envelope: 'spread', tags: ['Workspace'] },
  { method: 'GET', path: '/workspace/scaling-ads', field: 'Query.workspaceScalingAds', envelope: 'spread', omitNull: ['data[].ad.collationId'], tags: ['Workspace'] },
  { method: 'GET', path: '/workspace/media-mix', field: 'Query.workspaceMediaMix', envelope: 'spread', tags: ['Workspace'] },
  // Boards (the saving mechanism) and the favorites families over them. `scope` is in the query string of every
  // favorites route but the two adds (POST bodies) and the folder creates.
  { method: 'GET', path: '/boards', field: 'Query.boards', envelope: 'spread', tags: ['Boards'] },
  { method: 'POST', path: '/boards', field: 'Mutation.boardCreate', envelope: 'single', tags: ['Boards'] },
  { method: 'GET', path: '/boards/:boardId', field: 'Query.board', envelope: 'single', tags: ['Boards'] },
  { method: 'PATCH', path: '/boards/:boardId', field: 'Mutation.boardUpdate', envelope: 'single', nullArgs: ['description'], tags: ['Boards'] },
  { method: 'DELETE', path: '/boards/:boardId', field: 'Mutation.boardArchive', envelope: 'single', tags: ['Boards'] },
  { method: 'PATCH', path: '/boards/:boardId/parent', field: 'Mutation.boardMove', envelope: 'single', nullArgs: ['parentBoardId'], tags: ['Boards'] },
  { method: 'POST', path: '/boards/:boardId/restore', field: 'Mutation.boardRestore', envelope: 'single', tags: ['Boards'] },
  { method: 'GET', path: '/boards/:boardId/items', field: 'Query.boardItems', envelope: 'spread', tags: ['Boards'] },
  { method: 'POST', path: '/boards/:boardId/items', field: 'Mutation.boardItemAdd', envelope: 'spread', tags: ['Boards'] },
  { method: 'DELETE', path: '/boards/:boardId/items/:itemId', field: 'Mutation.boardItemRemove', envelope: 'single', tags: ['Boards'] },
  { method: 'POST', path: '/boards/:boardId/share', field: 'Mutation.boardShare', envelope: 'single', tags: ['Boards'] },
  { method: 'DELETE', path: '/boards/:boardId/share', field: 'Mutation.boardShareRevoke', envelope: 'single', tags: ['Boards'] },

  { method: 'GET', path: '/favorites/ads', field: 'Query.favoriteAds', envelope: 'spread', omitNull: ['data[].ad.collationId'], tags: ['Favorites'] },
  { method: 'POST', path: '/favorites/ads', field: 'Mutation.favoriteAdAdd', envelope: 'spread', omitNull: ['data.ad.collationId'], tags: ['Favorites'] },
  { method: 'DELETE', path: '/favorites/ads/:adId', field: 'Mutation.favoriteAdRemove', envelope: 'single', tags: ['Favorites'] },
  { method: 'PATCH', path: '/favorites/ads/saved/:favoriteId/folder', field: 'Mutation.favoriteAdMove', envelope: 'single', omitNull: ['ad.collationId'], argsIn: { scope: 'query-string' }, tags: ['Favorites'] },
  { method: 'DELETE', path: '/favorites/ads/saved/:favoriteId', field: 'Mutation.favoriteAdDelete', envelope: 'single', tags: ['Favorites'] },
  { method: 'GET', path: '/favorites/ads/folders', field: 'Query.favoriteAdFolders', envelope: 'spread', tags: ['Favorites'] },
  { method: 'POST', path: '/favorites/ads/folders', field: 'Mutation.favoriteAdFolderCreate', envelope: 'single', tags: ['Favorites'] },
  { method: 'PATCH', path: '/favorites/ads/folders/reorder', field: 'Mutation.favoriteAdFoldersReorder', envelope: 'single', argsIn: { scope: 'query-string' }, tags: ['Favorites'] },
  { method: 'PATCH', path: '/favorites/ads/folders/:folderId', field: 'Mutation.favoriteAdFolderUpdate', envelope: 'single', argsIn: { scope: 'query-string' }, nullArgs: ['parentId'], tags: ['Favorites'] },
  { method: 'DELETE', path: '/favorites/ads/folders/:folderId', field: 'Mutation.favoriteAdFolderDelete', envelope: 'single', argsIn: { mode: 'body', targetFolderId: 'body' }, tags: ['Favorites'] },
  { method: 'PATCH', path: '/favorites/ads/folders/:folderId/visibility', field: 'Mutation.favoriteAdFolderVisibility', envelope: 'single', argsIn: { scope: 'query-string' }, tags: ['Favorites'] },
  { method: 'POST', path: '/favorites/ads/folders/:folderId/share', field: 'Mutation.favoriteAdFolderShare', envelope: 'single', argsIn: { scope: 'query-string' }, tags: ['Favorites'] },

  { method: 'GET', path: '/favorites/shops', field: 'Query.favoriteShops', envelope: 'spread', omitNull: ['data[].shop.tiktok'], tags: ['Favorites'] },
  { method: 'POST', path: '/favorites/shops', field: 'Mutation.favoriteShopAdd', envelope: 'spread', omitNull: ['data.shop.tiktok'], tags: ['Favorites'] },
  { method: 'DELETE', path: '/favorites/shops/:websiteId', field: 'Mutation.favoriteShopRemove', envelope: 'single', tags: ['Favorites'] },
  { method: 'PATCH', path: '/favorites/shops/saved/:favoriteId/folder', field: 'Mutation.favoriteShopMove', envelope: 'single', omitNull: ['shop.tiktok'], argsIn: { scope: 'query-string' }, tags: ['Favorites'] },
  { method: 'DELETE', path: '/favorites/shops/saved/:favoriteId', field: 'Mutation.favoriteShopDelete', envelope: 'single', tags: ['Favorites'] },
  { method: 'GET', path: '/favorites/shops/folders', field: 'Query.favoriteShopFolders', envelope: 'spread', tags: ['Favorites'] },
  { method: 'POST', path: '/favorites/shops/folders', field: 'Mutation.favoriteShopFolderCreate', envelope: 'single', tags: ['Favorites'] },
  { method: 'PATCH', path: '/favorites/shops/folders/:folderId', field: 'Mutation.favoriteShopFolderUpdate', envelope: 'single', argsIn: { scope: 'query-string' }, tags: ['Favorites'] },
  { method: 'DELETE', path: '/favorites/shops/folders/:folderId', field: 'Mutation.favoriteShopFolderDelete', envelope: 'single', argsIn: { mode: 'body', targetFolderId: 'body' }, tags: ['Favorites'] },
  { method: 'PATCH', path: '/favorites/shops/folders/:folderId/visibility', field: 'Mutation.favoriteShopFolderVisibility', envelope: 'single', argsIn: { scope: 'query-string' }, tags: ['Favorites'] },

  { method: 'GET', path: '/favorites/emails', field: 'Query.favoriteEmails', envelope: 'spread', tags: ['Favorites'] },
  { method: 'POST', path: '/favorites/emails', field: 'Mutation.favoriteEmailAdd', envelope: 'spread', tags: ['Favorites'] },
  { method: 'DELETE', path: '/favorites/emails/:emailId', field: 'Mutation.favoriteEmailRemove', envelope: 'single', tags: ['Favorites'] },
  { method: 'PATCH', path: '/favorites/emails/saved/:favoriteId/folder', field: 'Mutation.favoriteEmailMove', envelope: 'single', argsIn: { scope: 'query-string' }, tags: ['Favorites'] },
  { method: 'DELETE', path: '/favorites/emails/saved/:favoriteId', field: 'Mutation.favoriteEmailDelete', envelope: 'single', tags: ['Favorites'] },
  { method: 'GET', path: '/favorites/emails/folders', field: 'Query.favoriteEmailFolders', envelope: 'spread', tags: ['Favorites'] },
  { method: 'POST', path: '/favorites/emails/folders', field: 'Mutation.favoriteEmailFolderCreate', envelope: 'single', tags: ['Favorites'] },
  { method: 'PATCH', path: '/favorites/emails/folders/reorder', field: 'Mutation.favoriteEmailFoldersReorder', envelope: 'single', argsIn: { scope: 'query-string' }, tags: ['Favorites'] },
  { method: 'PATCH', path: '/favorites/emails/folders/:folderId', field: 'Mutation.favoriteEmailFolderUpdate', envelope: 'single', argsIn: { scope: 'query-string' }, nullArgs: ['parentId'], tags: ['Favorites'] },
  { method: 'DELETE', path: '/favorites/emails/folders/:folderId', field: 'Mutation.favoriteEmailFolderDelete', envelope: 'single', argsIn: { mode: 'body', targetFolderId: 'body' }, tags: ['Favorites'] },
  { method: 'PATCH', path: '/favorites/emails/folders/:folderId/visibility', field: 'Mutation.favoriteEmailFolderVisibility', envelope: 'single', argsIn: { scope: 'query-string' }, tags: ['Favorites'] },

  // The feed of market changes (issue #36); its live stream, GET /v1/events/stream, is served by rest/event-stream.ts.
  { method: 'GET', path: '/events', field: 'Query.events', envelope: 'spread', tags: ['Events'] },

  // Webhooks (issue #36): a workspace's endpoints, signed deliveries of its events, their log and replays.
  { method: 'GET', path: '/webhooks', field: 'Query.webhooks', envelope: 'spread', tags: ['Webhooks'] },
  { method: 'POST', path: '/webhooks', field: 'Mutation.webhookCreate', envelope: 'single', status: 201, tags: ['Webhooks'] },
  { method: 'GET', path: '/webhooks/:webhookId', field: 'Query.webhook', envelope: 'single', tags: ['Webhooks'] },
  { method: 'PATCH', path: '/webhooks/:webhookId', field: 'Mutation.webhookUpdate', envelope: 'single', nullArgs: ['filter', 'description'], tags: ['Webhooks'] },
  { method: 'DELETE', path: '/webhooks/:webhookId', field: 'Mutation.webhookDelete', envelope: 'single', tags: ['Webhooks'] },
  { method: 'POST', path: '/webhooks/:webhookId/rotate-secret', field: 'Mutation.webhookSecretRotate', envelope: 'single', tags: ['Webhooks'] },
  { method: 'POST', path: '/webhooks/:webhookId/test', field: 'Mutation.webhookTest', envelope: 'single', tags: ['Webhooks'] },
  { method: 'GET', path: '/webhooks/:webhookId/deliveries', field: 'Query.webhookDeliveries', envelope: 'spread', tags: ['Webhooks'] },
  { method: 'POST', path: '/webhooks/:webhookId/deliveries/:deliveryId/replay', field: 'Mutation.webhookDeliveryReplay', envelope: 'single', tags: ['Webhooks'] },

  // Saved searches (issue #36): a market list route and its arguments, whose newly matching rows become events.
  { method: 'GET', path: '/saved-searches', field: 'Query.savedSearches', envelope: 'spread', tags: ['Saved searches'] },
  { method: 'POST', path: '/saved-searches', field: 'Mutation.savedSearchCreate', envelope: 'single', status: 201, tags: ['Saved searches'] },
  { method: 'GET', path: '/saved-searches/:savedSearchId', field: 'Query.savedSearch', envelope: 'single', tags: ['Saved searches'] },
  { method: 'PATCH', path: '/saved-searches/:savedSearchId', field: 'Mutation.savedSearchUpdate', envelope: 'single', tags: ['Saved searches'] },
  { method: 'DELETE', path: '/saved-searches/:savedSearchId', field: 'Mutation.savedSearchDelete', envelope: 'single', tags: ['Saved searches'] },

  // Exports (issue #37): a list route's whole result as a file, written by a job; the file itself,
  // GET /v1/exports/{exportId}/file, is served by rest/export-file.ts. POST /v1/exports?dryRun=true runs exportEstimate.
  { method: 'GET', path: '/exports', field: 'Query.exports', envelope: 'spread', tags: ['Exports'] },
  { method: 'POST', path: '/exports', field: 'Mutation.exportCreate', envelope: 'single', status: 201, dryRunField: 'Query.exportEstimate', tags: ['Exports'] },
  { method: 'POST', path: '/exports/estimate', field: 'Query.exportEstimate', envelope: 'single', tags: ['Exports'] },
  { method: 'GET', path: '/exports/:exportId', field: 'Query.export', envelope: 'single', tags: ['Exports'] },
  { method: 'DELETE', path: '/exports/:exportId', field: 'Mutation.exportCancel', envelope: 'single', tags: ['Exports'] },
];

/**
 * The two GET routes served beside the table (no JSON envelope to put an answer in: the route-driven tools would
 * wait on a stream for ever), described here so their plugins, the OpenAPI document and the errors name them alike.
 * `field` is the GraphQL field whose arguments they read: the export's id, the feed's filters.
 */
export const EXPORT_FILE_ROUTE: RestRoute = { method: 'GET', path: '/exports/:exportId/file', field: 'Query.export', envelope: 'single', tags: ['Exports'] };
export const EVENT_STREAM_ROUTE: RestRoute = { method: 'GET', path: '/events/stream', field: 'Query.events', envelope: 'spread', tags: ['Events'] };
