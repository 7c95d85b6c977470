import type { Product } from '../../generated/prisma/client.js';
import { euSpend, viewOf } from './figures.js';
import type { ProductRow } from './types.js';

// Each nested group of the Product record as the API shows it, built from a loaded row once per group: plain
// fields, which graphql-jit reads without calling a resolver per field of every row.

const num = (value: { toNumber(): number } | null) => (value === null ? null : value.toNumber());

export type PriceView = {
  amount: number;
  currency: string;
  amountUsd: number;
  compareAtAmount: number | null;
  onSale: boolean;
  discountPercent: number | null;
  isSubscription: boolean;
  promoTypes: string[];
};

export function priceView(p: Product): PriceView {
  const onSale = p.compareAtPrice !== null && p.compareAtPrice.gt(p.price);
  return {
    amount: p.price.toNumber(),
    currency: p.currency,
    amountUsd: p.priceUsd.toNumber(),
    compareAtAmount: num(p.compareAtPrice),
    onSale,
    discountPercent: onSale && p.compareAtPrice!.gt(0) ? Math.round((1 - p.price.toNumber() / p.compareAtPrice!.toNumber()) * 1000) / 10 : null,
    isSubscription: p.isSubscription,
    promoTypes: p.promoTypes,
  };
}

export type ReviewsView = { rating: number | null; count: number };
export const reviewsView = (p: Product): ReviewsView => ({ rating: p.rating, count: p.reviewCount });

export type BestSellerRankView = { position: number | null; percentile: number | null };
export const bestSellerRankView = (p: Product): BestSellerRankView => ({ position: p.bestSellerPosition, percentile: p.bestSellerPercentile });

export type RevenueRangeView = { min: number; mean: number; max: number };
export type SalesView = { dailyRevenueUsd: number; dailyRevenueRangeUsd: RevenueRangeView; monthlyRevenueUsd: number; dailyUnitsSold: number; monthlyUnitsSold: number };

export const salesView = (p: Product): SalesView => ({
  dailyRevenueUsd: p.dailyRevenueUsd,
  dailyRevenueRangeUsd: { min: p.dailyRevenueMinUsd, mean: p.dailyRevenueUsd, max: p.dailyRevenueMaxUsd },
  monthlyRevenueUsd: p.monthlyRevenueUsd,
  dailyUnitsSold: p.dailyUnitsSold,
  monthlyUnitsSold: p.monthlyUnitsSold,
});

export type CountryActiveAdsView = { countryCode: string; activeAds: number };
export type AdsView = {
  active: number;
  total: number;
  launched30d: number;
  weekOverWeekGrowth: number | null;
  adShare: number;
  advertisersCount: number;
  hasPartnershipAds: boolean;
  previewUrls: string[];
  activeByCountry: CountryActiveAdsView[];
  sellingCountries: string[];
};

export const adsView = (p: Product): AdsView => ({
  active: p.activeAds,
  total: p.totalAds,
  launched30d: p.adsLaunched30d,
  weekOverWeekGrowth: p.weekOverWeekGrowth,
  adShare: p.adShare,
  advertisersCount: p.advertisersCount,
  hasPartnershipAds: p.hasPartnershipAds,
  previewUrls: p.previewUrls,
  activeByCountry: p.activeByCountry as CountryActiveAdsView[],
  sellingCountries: p.sellingCountries,
});

export type CountryReach = { countryCode: string; reach: number | bigint };
export type EuMetricsView = {
  locked: boolean;
  spendUsd: number | null;
  dailySpendUsd: number | null;
  reach: bigint | null;
  spendShare: number | null;
  reachByCountry: CountryReach[] | null;
};

/** EU figures at the row's CPM, or all null (locked) when the caller's plan has no EU data. */
export function euMetricsView(p: Product): EuMetricsView {
  const { euAccess } = viewOf(p);
  return {
    locked: !euAccess,
    spendUsd: euSpend(p, p.euSpendUsd),
    dailySpendUsd: euSpend(p, p.euDailySpendUsd),
    reach: euAccess ? p.euReach : null,
    spendShare: euAccess ? p.spendShare : null,
    reachByCountry: euAccess ? (p.euReachByCountry as CountryReach[]) : null,
  };
}

export type WeekView = { from: Date; to: Date; activeAds: number; euDailySpendUsd: number | null; euDailyReach: number | null };

/** The weeks, EU figures priced at the row's CPM or hidden. */
export function weekViews(p: ProductRow): WeekView[] {
  const { euAccess } = viewOf(p);
  return p.weeks.map((week) => ({
    from: week.weekStart,
    to: week.weekEnd,
    activeAds: week.activeAds,
    euDailySpendUsd: euSpend(p, week.euDailySpendUsd),
    euDailyReach: euAccess ? week.euDailyReach : null,
  }));
}
