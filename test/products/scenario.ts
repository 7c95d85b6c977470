import type { TestDatabase } from '../support/database.js';

// A small catalogue with known figures: three shops, nine products. Ties are on purpose: A1 and B1 share the
// best-selling keys (position 1, revenue 30,000), A2 and A3 their revenue, C1 and C2 revenue and publication.
//   best-selling (asc): A1 B1 C1 A2 B2 C2 A3 B3 A4   (A4 has no position: last)

export const SHOP = {
  A: 'aaaaaaaa-0000-4000-8000-000000000001',
  B: 'bbbbbbbb-0000-4000-8000-000000000002',
  C: 'cccccccc-0000-4000-8000-000000000003',
} as const;
export const THEME = 'dddddddd-0000-4000-8000-000000000001';
export const PIXEL = { meta: 'eeeeeeee-0000-4000-8000-000000000001', tiktok: 'eeeeeeee-0000-4000-8000-000000000002' } as const;

export const P = {
  A1: `${SHOP.A}:1001`, A2: `${SHOP.A}:1002`, A3: `${SHOP.A}:1003`, A4: `${SHOP.A}:1004`,
  B1: `${SHOP.B}:2001`, B2: `${SHOP.B}:2002`, B3: `${SHOP.B}:2003`,
  C1: `${SHOP.C}:3001`, C2: `${SHOP.C}:3002`,
} as const;
export const BEST_SELLING = [P.A1, P.B1, P.C1, P.A2, P.B2, P.C2, P.A3, P.B3, P.A4];

const day = (iso: string) => new Date(`${iso}T00:00:00.000Z`);

type Row = {
  id: string; title: string; description?: string; price: string; priceUsd: string; compareAtPrice?: string; currency: string;
  position: number | null; percentile: number | null; revenue: number; units: number; rating?: number | null; reviews?: number;
  active?: number; total?: number; l7?: number; l14?: number; l30?: number; adShare?: number; euSpend?: number; euSpend14d?: number;
  euReach?: number; spendShare?: number; selling?: string[]; main?: string | null; reachBy?: { countryCode: string; reach: number }[];
  partnership?: boolean; published: string | null; subscription?: boolean; categoryIds?: number[]; promo?: string[];
};

const ROWS: Row[] = [
  { id: P.A1, title: 'Vitamin C Serum', description: 'Brightening serum with vitamin C', price: '29.00', priceUsd: '31.50', compareAtPrice: '39.00', promo: ['percent-off'], currency: 'EUR', position: 1, percentile: 100, revenue: 30000, units: 1000, rating: 4.6, reviews: 320, active: 12, total: 30, l7: 2, l14: 4, l30: 8, adShare: 60, euSpend: 900, euSpend14d: 300, euReach: 100000, spendShare: 75, selling: ['FR', 'DE'], main: 'FR', reachBy: [{ countryCode: 'FR', reach: 70000 }, { countryCode: 'DE', reach: 30000 }], partnership: true, published: '2026-10-01', categoryIds: [567] },
  { id: P.A2, title: 'Retinol Night Cream', description: 'A rich cream for the night', price: '45.00', priceUsd: '48.90', currency: 'EUR', position: 2, percentile: 75, revenue: 12000, units: 400, rating: 4.1, reviews: 80, active: 5, total: 10, l7: 0, l14: 1, l30: 3, adShare: 25, euSpend: 300, euSpend14d: 120, euReach: 33333, spendShare: 25, selling: ['DE'], main: 'DE', reachBy: [{ countryCode: 'DE', reach: 33333 }], published: '2026-06-01', subscription: true, categoryIds: [567] },
  { id: P.A3, title: 'Vitamin Gummies', description: 'Free gift with every order', price: '0.00', priceUsd: '0.00', currency: 'EUR', position: 3, percentile: 50, revenue: 12000, units: 600, rating: null, reviews: 0, active: 3, total: 3, l30: 1, adShare: 15, selling: ['US'], main: 'US', published: null },
  { id: P.A4, title: 'Clay Mask', price: '15.00', priceUsd: '16.30', currency: 'EUR', position: null, percentile: null, revenue: 500, units: 20, published: '2025-01-01' },
  { id: P.B1, title: 'Trail Running Shoes', description: 'Light shoes for rough trails', price: '120.00', priceUsd: '120.00', currency: 'USD', position: 1, percentile: 100, revenue: 30000, units: 300, rating: 4.8, reviews: 1000, active: 20, total: 50, l7: 5, l14: 9, l30: 15, adShare: 70, euSpend: 50, euSpend14d: 20, euReach: 5556, spendShare: 100, selling: ['US', 'CA'], main: 'US', reachBy: [{ countryCode: 'IE', reach: 5556 }], published: '2026-11-01', categoryIds: [187] },
  { id: P.B2, title: 'Vitamin Water Bottle', price: '25.00', priceUsd: '25.00', currency: 'USD', position: 2, percentile: 66.67, revenue: 8000, units: 500, rating: 3.9, reviews: 50, active: 8, total: 8, l30: 2, adShare: 30, selling: ['US'], main: 'US', partnership: false, published: '2026-09-15' },
  { id: P.B3, title: 'Camping Lantern', price: '40.00', priceUsd: '40.00', currency: 'USD', position: 3, percentile: 33.33, revenue: 800, units: 20, published: '2024-05-01', categoryIds: [1011] },
  { id: P.C1, title: 'Linen Throw Blanket', price: '60.00', priceUsd: '76.00', currency: 'GBP', position: 1, percentile: 100, revenue: 2000, units: 33, active: 1, total: 1, adShare: 50, selling: ['GB'], main: 'GB', published: '2026-03-01' },
  { id: P.C2, title: 'Scented Candle', price: '20.00', priceUsd: '25.30', currency: 'GBP', position: 2, percentile: 50, revenue: 2000, units: 100, active: 1, total: 1, adShare: 50, selling: ['GB'], main: 'GB', published: '2026-03-01' },
];

export async function productsScenario({ prisma }: TestDatabase): Promise<void> {
  await prisma.theme.create({ data: { id: THEME, name: 'Sense' } });
  await prisma.pixel.createMany({ data: [{ id: PIXEL.meta, slug: 'meta-pixel-products', name: 'Meta Pixel (products)', categories: [] }, { id: PIXEL.tiktok, slug: 'tiktok-pixel-products', name: 'TikTok Pixel (products)', categories: [] }] });
  await prisma.shopifyApp.createMany({ data: [{ id: 101, label: 'Klaviyo', slug: 'klaviyo-products' }, { id: 102, label: 'Judge.me', slug: 'judgeme-products' }] });
  await prisma.shop.createMany({
    data: [
      { id: SHOP.A, domain: 'glowskin.com', name: 'Glow Skin', countryCode: 'FR', currency: 'EUR', monthlyVisits: 50000, trafficGrowth30d: 0.2, productsCount: 4, createdAt: day('2024-01-10'), themeId: THEME, categoryIds: [567] },
      { id: SHOP.B, domain: 'peakgear.com', name: 'Peak Gear', countryCode: 'US', currency: 'USD', monthlyVisits: 200000, trafficGrowth30d: -0.1, productsCount: 3, createdAt: day('2025-06-01'), categoryIds: [187] },
      { id: SHOP.C, domain: 'homenest.co.uk', name: 'Home Nest', countryCode: 'GB', currency: 'GBP', monthlyVisits: 1000, productsCount: 2, createdAt: day('2026-02-01') },
    ],
  });
  await prisma.shopPixel.createMany({ data: [{ shopId: SHOP.A, pixelId: PIXEL.meta }, { shopId: SHOP.B, pixelId: PIXEL.tiktok }] });
  await prisma.shopApp.createMany({ data: [{ shopId: SHOP.A, appId: 101 }, { shopId: SHOP.B, appId: 102 }] });
  await prisma.shopTrafficCountry.createMany({
    data: [
      { shopId: SHOP.A, countryCode: 'FR', share: 0.6 }, { shopId: SHOP.A, countryCode: 'DE', share: 0.2 },
      { shopId: SHOP.B, countryCode: 'US', share: 0.7 }, { shopId: SHOP.B, countryCode: 'CA', share: 0.1 },
      { shopId: SHOP.C, countryCode: 'GB', share: 0.9 },
    ],
  });
  await prisma.product.createMany({
    data: ROWS.map((r) => {
      const [shopId, shopifyId] = r.id.split(':');
      const handle = r.title.toLowerCase().replace(/[^a-z0-9]+/g, '-');
      return {
        id: r.id, shopId, shopifyId, title: r.title, description: r.description ?? '', handle, url: `https://shop.example/products/${handle}`,
        imageUrl: `/media/${handle}.jpg`, optionNames: ['Title'], publishedAt: r.published ? day(r.published) : null,
        createdAt: day('2024-01-01'), updatedAt: day('2026-11-01'), currency: r.currency, price: r.price, compareAtPrice: r.compareAtPrice ?? null, priceUsd: r.priceUsd,
        isSubscription: r.subscription ?? false, promoTypes: r.promo ?? [], categoryIds: r.categoryIds ?? [], rating: r.rating ?? null, reviewCount: r.reviews ?? 0,
        bestSellerPosition: r.position, bestSellerPercentile: r.percentile, dailyRevenueUsd: Math.round(r.revenue / 30 * 100) / 100,
        dailyRevenueMinUsd: Math.round(r.revenue / 45), dailyRevenueMaxUsd: Math.round(r.revenue / 20), monthlyRevenueUsd: r.revenue,
        dailyUnitsSold: Math.round(r.units / 30 * 100) / 100, monthlyUnitsSold: r.units, activeAds: r.active ?? 0, totalAds: r.total ?? 0,
        adsLaunched7d: r.l7 ?? 0, adsLaunched14d: r.l14 ?? 0, adsLaunched30d: r.l30 ?? 0, adShare: r.adShare ?? 0, advertisersCount: r.active ? 1 : 0,
        hasPartnershipAds: r.partnership ?? false, previewUrls: [], activeByCountry: (r.selling ?? []).map((countryCode) => ({ countryCode, activeAds: 1 })),
        sellingCountries: r.selling ?? [], mainSellingCountry: r.main ?? null, euSpendUsd: r.euSpend ?? 0, euDailySpendUsd: (r.euSpend ?? 0) / 30,
        euSpend14dUsd: r.euSpend14d ?? 0, euReach: BigInt(r.euReach ?? 0), spendShare: r.spendShare ?? 0, euReachByCountry: r.reachBy ?? [],
      };
    }),
  });
  await prisma.productWeek.createMany({
    data: [
      { productId: P.A1, weekStart: day('2026-11-09'), weekEnd: day('2026-11-15'), activeAds: 10, euDailySpendUsd: 27, euDailyReach: 3000 },
      { productId: P.A1, weekStart: day('2026-11-16'), weekEnd: day('2026-11-22'), activeAds: 12, euDailySpendUsd: 36, euDailyReach: 4000 },
    ],
  });
}
