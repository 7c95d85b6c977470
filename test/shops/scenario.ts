import type { TestDatabase } from '../support/database.js';

// A hand-made shops and emails market with known figures, for the shops and emails tests.
//
//   GLOW  nordicglow.com   Nordic Glow   50000 visits, SE/SEK/sv, Plus, categories 1+2, apps 101+102, pixels META+TIKTOK,
//         tech shopify+klaviyo, theme Dawn, trending, DTC, Trustpilot 4.5 (1200), related nordicglow.se, myshopify
//         nordic-glow.myshopify.com, main market SE, growth 30d +20% / 90d +50% / 180d +100%, 120 products, created
//         2020-01-15, revenue 90000, best seller 30 USD; page 1001 (2 active ads, 2 inactive); TikTok 5000 followers
//         (2 active ads, 1 organic); socials for 100 days; 3 sales readings; 4 products; 3 emails
//   LAB   glowlab.com      Glow Lab      20000 visits, SE/EUR/en, category 1, app 101, pixel META, tech shopify, theme Dawn,
//         DTC, main market DE, growth -10%, 40 products, created 2023-06-01, revenue 20000, best seller 25; 1 email
//   PEAK  peakfit.store    Peak Fitness  300000 visits, US/USD/en, category 3, app 102, pixel TIKTOK, tech shopify, theme
//         Impulse, DTC, main market US, growth +5%, 800 products, created 2018-03-01, revenue 500000, best seller 80;
//         page 1002 (1 active ad); product "Steel kettlebell"
//   TINY  tinycandles.shop Tiny Candles  900 visits, FR/EUR/fr, category 4, nothing else, created 2025-02-01, not DTC

export const GLOW = '5b0e0000-0000-4000-8000-000000000001';
export const LAB = '5b0e0000-0000-4000-8000-000000000002';
export const PEAK = '5b0e0000-0000-4000-8000-000000000003';
export const TINY = '5b0e0000-0000-4000-8000-000000000004';
export const DAWN = '7e000000-0000-4000-8000-000000000001';
export const IMPULSE = '7e000000-0000-4000-8000-000000000002';
export const META_PIXEL = '91000000-0000-4000-8000-000000000001';
export const TIKTOK_PIXEL = '91000000-0000-4000-8000-000000000002';

const DAY = 86_400_000;
const day = (iso: string) => new Date(`${iso}T00:00:00.000Z`);
/** Midnight UTC `n` days ago, plus `hours`. */
export const daysAgo = (n: number, hours = 0) => {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) - n * DAY + hours * 3_600_000);
};

export async function shopsScenario({ prisma }: TestDatabase): Promise<void> {
  await prisma.theme.createMany({ data: [{ id: DAWN, name: 'Dawn' }, { id: IMPULSE, name: 'Impulse' }] });
  await prisma.shopifyApp.createMany({ data: [{ id: 101, label: 'Klaviyo', slug: 'klaviyo' }, { id: 102, label: 'Judge.me', slug: 'judge-me' }] });
  const shopifyTech = await prisma.technology.create({ data: { slug: 'shopify', name: 'Shopify', categories: ['platform'] } });
  const klaviyoTech = await prisma.technology.create({ data: { slug: 'klaviyo', name: 'Klaviyo', categories: ['email'] } });
  await prisma.pixel.createMany({ data: [{ id: META_PIXEL, slug: 'meta-pixel', name: 'Meta Pixel', categories: [] }, { id: TIKTOK_PIXEL, slug: 'tiktok-pixel', name: 'TikTok Pixel', categories: [] }] });

  await prisma.shop.createMany({
    data: [
      {
        id: GLOW, domain: 'nordicglow.com', name: 'Nordic Glow', monthlyVisits: 50000, categories: ['Health & Beauty', 'Skin Care'], categoryIds: [1, 2],
        countryCode: 'SE', currency: 'SEK', defaultLanguage: 'sv', isShopifyPlus: true, relatedDomains: ['nordicglow.se'], myShopifyDomain: 'nordic-glow.myshopify.com',
        mainMarket: 'SE', trafficGrowth30d: 0.2, trafficGrowth90d: 0.5, trafficGrowth180d: 1.0, productsCount: 120, createdAt: day('2020-01-15'),
        monthlyRevenueUsd: 90000, bestSellerPriceUsd: 30, trustpilotRating: 4.5, trustpilotReviews: 1200, trustpilotUrl: 'https://www.trustpilot.com/review/nordicglow.com',
        facebookHandle: 'nordicglow', instagramHandle: 'nordic.glow', tiktokHandle: 'nordicglow', themeId: DAWN, displayInTrending: true, isDtc: true,
        screenshotUrl: '/media/shops/nordicglow.png', logoUrl: '/media/shops/nordicglow-logo.png',
      },
      {
        id: LAB, domain: 'glowlab.com', name: 'Glow Lab', monthlyVisits: 20000, categories: ['Health & Beauty'], categoryIds: [1], countryCode: 'SE', currency: 'EUR',
        defaultLanguage: 'en', mainMarket: 'DE', trafficGrowth30d: -0.1, productsCount: 40, createdAt: day('2023-06-01'), monthlyRevenueUsd: 20000, bestSellerPriceUsd: 25, themeId: DAWN, isDtc: true,
      },
      {
        id: PEAK, domain: 'peakfit.store', name: 'Peak Fitness', monthlyVisits: 300000, categories: ['Sporting Goods'], categoryIds: [3], countryCode: 'US', currency: 'USD',
        defaultLanguage: 'en', mainMarket: 'US', trafficGrowth30d: 0.05, productsCount: 800, createdAt: day('2018-03-01'), monthlyRevenueUsd: 500000, bestSellerPriceUsd: 80, themeId: IMPULSE, isDtc: true,
      },
      { id: TINY, domain: 'tinycandles.shop', name: 'Tiny Candles', monthlyVisits: 900, categories: ['Home & Garden'], categoryIds: [4], countryCode: 'FR', currency: 'EUR', defaultLanguage: 'fr', productsCount: 12, createdAt: day('2025-02-01'), isDtc: false },
    ],
  });
  await prisma.shopApp.createMany({ data: [{ shopId: GLOW, appId: 101 }, { shopId: GLOW, appId: 102 }, { shopId: LAB, appId: 101 }, { shopId: PEAK, appId: 102 }] });
  await prisma.shopPixel.createMany({ data: [{ shopId: GLOW, pixelId: META_PIXEL }, { shopId: GLOW, pixelId: TIKTOK_PIXEL }, { shopId: LAB, pixelId: META_PIXEL }, { shopId: PEAK, pixelId: TIKTOK_PIXEL }] });
  await prisma.shopTechnology.createMany({
    data: [{ shopId: GLOW, technologyId: shopifyTech.id }, { shopId: GLOW, technologyId: klaviyoTech.id }, { shopId: LAB, technologyId: shopifyTech.id }, { shopId: PEAK, technologyId: shopifyTech.id }],
  });
  await prisma.shopTrafficCountry.createMany({
    data: [
      { shopId: GLOW, countryCode: 'SE', share: 0.6 }, { shopId: GLOW, countryCode: 'NO', share: 0.2 }, { shopId: GLOW, countryCode: 'DE', share: 0.1 },
      { shopId: LAB, countryCode: 'DE', share: 0.7 }, { shopId: LAB, countryCode: 'SE', share: 0.2 },
      { shopId: PEAK, countryCode: 'US', share: 0.8 }, { shopId: PEAK, countryCode: 'CA', share: 0.1 },
    ],
  });
  // GLOW's traffic: 7 months, 40000..50000 (the summary keeps the 6 latest).
  await prisma.shopTrafficMonth.createMany({ data: [0, 1, 2, 3, 4, 5, 6].map((i) => ({ shopId: GLOW, month: day(`2026-0${i + 3}-01`), visits: 44000 + i * 1000 })) });
  await prisma.shopSalesReading.createMany({
    data: [
      { shopId: GLOW, date: day('2026-11-02'), revenueUsd: 80000, revenueMinUsd: 60000, revenueMaxUsd: 100000, unitsSold: 2600, ordersCount: 2100 },
      { shopId: GLOW, date: day('2026-11-09'), revenueUsd: 85000, revenueMinUsd: 64000, revenueMaxUsd: 106000, unitsSold: 2800, ordersCount: 2250 },
      { shopId: GLOW, date: day('2026-11-16'), revenueUsd: 90000, revenueMinUsd: 67000, revenueMaxUsd: 113000, unitsSold: 3000, ordersCount: 2400 },
    ],
  });
  // 100 days of followers ending yesterday: facebook 10000 + day index, instagram from day 50 only.
  await prisma.shopSocialDay.createMany({
    data: Array.from({ length: 100 }, (_, i) => ({ shopId: GLOW, date: daysAgo(100 - i), facebook: 10000 + i, instagram: i >= 50 ? 5000 + i : null })),
  });
  await prisma.product.createMany({
    data: [
      ...[1, 2, 3, 4].map((position) => ({
        id: `${GLOW}:${900 + position}`, shopId: GLOW, shopifyId: String(900 + position), title: `Glow serum no. ${position}`, handle: `glow-serum-${position}`,
        url: `https://nordicglow.com/products/glow-serum-${position}`, imageUrl: `/media/p/${position}.jpg`, currency: 'SEK',
        price: String(100 * position + 0.5), priceUsd: String(10 * position), createdAt: day(`2026-0${position}-10`), updatedAt: day('2026-10-01'), publishedAt: day(`2026-0${position}-11`),
        bestSellerPosition: 5 - position,
      })),
      { id: `${PEAK}:777`, shopId: PEAK, shopifyId: '777', title: 'Steel kettlebell', handle: 'kettlebell', url: 'https://peakfit.store/products/kettlebell', currency: 'USD', price: '80', priceUsd: '80', createdAt: day('2026-01-01'), updatedAt: day('2026-01-01'), bestSellerPosition: 1 },
    ],
  });

  await prisma.advertiser.createMany({ data: [{ id: '1001', name: 'Nordic Glow', liveAdsCount: 2, reach30d: 7000n, totalReach: 9000n }, { id: '1002', name: 'Peak Fitness', liveAdsCount: 1 }] });
  await prisma.advertiserShop.createMany({ data: [{ advertiserId: '1001', shopId: GLOW, isPrimary: true, isMain: true, rank: 1 }, { advertiserId: '1002', shopId: PEAK, isPrimary: true, isMain: true, rank: 1 }] });
  const ad = (id: string, advertiserId: string, status: 'active' | 'inactive', mediaType: 'video' | 'image', firstSeen: Date, lastSeen: Date, countries: string[]) => ({
    id, collationId: id, advertiserId, status, mediaType, createdAt: firstSeen, firstSeenAt: firstSeen, lastSeenAt: lastSeen, targetedCountries: countries,
    thumbnailUrl: `/media/ads/${id}-thumb.jpg`, mediaUrl: `/media/ads/${id}.mp4`,
  });
  await prisma.ad.createMany({
    data: [
      ad('facebook_71', '1001', 'active', 'video', daysAgo(20), daysAgo(0), ['SE', 'NO']),
      ad('facebook_72', '1001', 'active', 'image', daysAgo(5), daysAgo(0), ['SE']),
      ad('facebook_73', '1001', 'inactive', 'image', daysAgo(60), daysAgo(3), ['DE']),
      ad('facebook_74', '1002', 'active', 'video', daysAgo(10), daysAgo(0), ['US']),
      // A duplicate of facebook_73 (never a latest ad), first seen 40 days ago: GLOW launched 2 ads in the last 30 days, 1 in the 30 before.
      { ...ad('facebook_75', '1001', 'inactive', 'image', daysAgo(40), daysAgo(35), ['DE']), collationId: 'facebook_73', isGroupLead: false },
    ],
  });

  await prisma.tikTokProfile.create({ data: { id: '7900000000000000001', handle: 'nordicglow', name: 'Nordic Glow', accountType: 'business', secUid: 'x', followers: 5000n, totalTikToks: 3, newTikToks: 1, views: 80000n, likes: 4000n, shopId: GLOW } });
  const item = (id: string, type: 'ad' | 'organic', status: 'active' | 'inactive') => ({
    id, type, status, publishedAt: daysAgo(10), createdAt: daysAgo(10), updatedAt: daysAgo(1), indexedAt: daysAgo(1), lastSeenAt: daysAgo(0), mediaType: 'video' as const, imageUrls: [], hashtags: [], countries: [], profileId: '7900000000000000001', shopId: GLOW,
  });
  await prisma.tikTokItem.createMany({ data: [item('7911', 'ad', 'active'), item('7912', 'ad', 'active'), item('7913', 'organic', 'active')] });
  await prisma.tikTokPageSnapshot.createMany({
    data: [1, 2, 3].map((n) => ({ profileId: '7900000000000000001', date: daysAgo(n), recordedAt: daysAgo(n, 6), adsCount: n, organicCount: 1, totalTikToks: 3, dailyViews: 10n, dailyLikes: 1n, dailyFollowers: 1 })),
  });

  await prisma.emailPromotionType.createMany({ data: [{ id: 1, name: 'Percent off' }, { id: 2, name: 'Free shipping' }] });
  await prisma.emailCategory.createMany({ data: [{ id: 1, name: 'Promotional' }, { id: 2, name: 'Lifecycle' }] });
  await prisma.emailEvent.createMany({ data: [{ id: 1, name: 'Black Friday', category: 'Holiday' }, { id: 2, name: 'Welcome', category: 'Lifecycle' }] });
  const email = (id: number, shopId: string | null, sentAt: Date, fields: { subject: string; body: string } & Record<string, unknown>) => ({
    id, shopId, sentAt, fromAddress: 'hello@nordicglow.com', campaignType: 'campaign', language: 'en', preheader: null, screenshotUrl: null, ...fields,
  });
  const emails = [
    email(501, GLOW, daysAgo(2, 9), { subject: 'Black Friday: 30% off every serum', body: 'Our biggest sale of the year. 30% off every serum until Monday.', promotionTypeId: 1, categoryId: 1, eventId: 1, html: '<html><body><h1>Black Friday</h1></body></html>', preheader: 'Ends Monday' }),
    email(502, GLOW, daysAgo(10, 9), { subject: 'Welcome to Nordic Glow', body: 'Thanks for joining. Here is your welcome gift.', campaignType: 'flow', language: 'sv', categoryId: 2, eventId: 2 }),
    email(503, GLOW, daysAgo(200, 9), { subject: 'Spring newsletter', body: 'New arrivals for spring: a lighter serum and a travel kit with free shipping.', promotionTypeId: 2, categoryId: 1 }),
    email(504, LAB, daysAgo(4, 9), { subject: 'Free shipping weekend', body: 'Free shipping on every order this weekend only.', fromAddress: 'news@mail.glowlab.com', promotionTypeId: 2, categoryId: 1 }),
  ];
  for (const row of emails) await prisma.email.create({ data: { ...row, bodyLength: String(row.body).length } as never });
}
