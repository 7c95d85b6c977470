// Response shapes of the shops and emails routes (specification "Shop summary", "Similar-shop row"; gaps-filled
// "Shops" and "Emails"), written as example values as in test/support/shapes.ts.

const POINT = { period: '', value: 1 };
const SHARE = { countryCode: '', share: 1 };

export const SHOP_SUMMARY = {
  id: '', domain: '', name: '', screenshotUrl: '', createdAt: '',
  profile: { countryCode: '', currency: '', isShopifyPlus: true },
  catalog: { productsCount: 1, mainCategory: '', bestSellers: [{ imageUrl: '', title: '', price: 1, currency: '' }] },
  traffic: { monthlyVisits: 1, growth30d: 1, history: [POINT], topCountries: [SHARE] },
  advertising: { activeAds: 1, linkedAdvertisersCount: 1, history: [POINT], topCountries: [SHARE] },
  tiktok: {
    hasTikTok: true, pageId: '', handle: '',
    profileMetrics: { followers: 1, totalPosts: 1, newPosts: 1, totalViews: 1, totalLikes: 1 },
    activity: { activeAds: 1, totalAds: 1, avgActiveAds7d: 1, avgActiveAds30d: 1 },
    lastUpdatedAt: '',
  },
  latestAds: [{ id: '', mediaType: '', mediaUrl: '', thumbnailUrl: '' }],
};

export const SIMILAR_SHOP = { shop: SHOP_SUMMARY, similarityScore: 1 };

export const EMAIL_SUMMARY = {
  id: 1, sentAt: '', campaignType: '',
  classification: { promotionType: '', promotionTypeId: 1, category: '', categoryId: 1, event: { name: '', id: 1, category: '' } },
  content: { subject: '', preheader: '', bodyPreview: '', bodyLength: 1, screenshotUrl: '' },
  shop: { id: '', domain: '', name: '' },
};

export const LINKED_ADVERTISER = { id: '', platform: '', facebookPageId: '', name: '', isPrimary: true, activeAds: 1 };
export const SHOP_PRODUCT = { id: '', title: '', handle: '', imageUrl: '', productUrl: '', price: 1, currency: '', rank: 1, createdAt: '', publishedAt: '' };
