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
  tags: string[];
};

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

  { method: 'GET', path: '/workspace/folders', field: 'Query.workspaceFolders', envelope: 'single', tags: ['Workspace'] },
  { method: 'GET', path: '/workspace/top-ads', field: 'Query.workspaceTopAds', envelope: 'spread', omitNull: ['data[].ad.collationId', 'meta'], tags: ['Workspace'] },
  { method: 'GET', path: '/workspace/hooks', field: 'Query.workspaceHooks', envelope: 'spread', tags: ['Workspace'] },
  { method: 'GET', path: '/workspace/ad-copies', field: 'Query.workspaceAdCopies', envelope: 'spread', tags: ['Workspace'] },
  { method: 'GET', path: '/workspace/landing-pages', field: 'Query.workspaceLandingPages', envelope: 'spread', tags: ['Workspace'] },
  { method: 'GET', path: '/workspace/scaling-ads', field: 'Query.workspaceScalingAds', envelope: 'spread', omitNull: ['data[].ad.collationId'], tags: ['Workspace'] },
  { method: 'GET', path: '/workspace/media-mix', field: 'Query.workspaceMediaMix', envelope: 'spread', tags: ['Workspace'] },
];
