// Response shapes of the brandtracker routes (the specification's Brandtracker, with the public reference's
// mutation-only fields), written as example values for keyPaths().

const WEBSITE = {
  id: 1, domain: 1, siteName: 1, trafficNumber: 1, trafficChange: 1, monthlyTraffic: { '2026-09': 1, '2026-10': 1 },
  socialNetworks: { facebook: 1, instagram: 1, youtube: 1 },
};

export const BRANDTRACKER = {
  id: 1, name: 1, facebookPageId: 1, avatarUrl: 1, status: { isLoaded: 1, lastCrawledAt: 1 }, workspaceAddedAt: 1, folder: null,
  advertising: { activeAds: 1, newAdsLastDay: 1, newAdsLast7Days: 1, newAdsLast30Days: 1 }, websites: [WEBSITE], totalTraffic: 1,
};

export const BRANDTRACKER_CHANGE = { ...BRANDTRACKER, workspaceLinkId: 1, targetType: 1, websiteId: 1, domain: 1 };

export const BRANDTRACKER_DETAIL = {
  ...BRANDTRACKER, createdAt: 1, updatedAt: 1,
  pageProfile: { about: 1, category: 1, facebookLikes: 1, instagramFollowers: 1, instagramUsername: 1, profileUri: 1, runningAds: 1 },
  statistics: { urlCount: { 'https://nordicglow.com/products/serum': 1 }, ctaCount: { 'Shop now': 1 }, liveAdCount: { activeCount: 1, inactiveCount: 1 }, formatCount: { video: 1 }, euData: { adsCount: 1, activeAdsCount: 1, reach: 1 } },
};

export const FOLDER = { id: 1, name: 1, rank: 1, brandtrackerCount: 1 };

export const LINKS_RESULT = { requestedCount: 1, affectedCount: 1, notFoundBrandtrackerIds: [], notFoundWorkspaceLinkIds: [] };

export const ROW_BRANDTRACKER = { id: 1, name: 1, facebookPageId: 1 };
