import { builder } from '../builder.js';
import { GRANULARITIES, RANK_PERIODS, TIME_WINDOWS } from './service.js';

// The per-brandtracker routes' enums: arguments (windows, periods, sorts, filters) and the creative format. The sorts
// both families take (hooks, ad copies, top-ads, scaling ads) are in types.ts, the workspace routes' own in workspace-types.ts.

/** The sort keys of the brand's ad lists (ads, partnership-ads, timeline). */
export const BRANDTRACKER_ADS_SORTS = ['newest', 'createdAt', 'longestRunning', 'reach', 'duplicates', 'adOrder', 'relevance'] as const;

export const TimeWindow = builder.enumType('BrandtrackerTimeWindow', {
  description: 'live: ads running at the snapshot (active now without snapshotDate); lastN: ads first seen in the N days before it.',
  values: TIME_WINDOWS,
});

export const RankPeriod = builder.enumType('BrandtrackerRankPeriod', {
  description: 'How far back a ranking figure reaches from the snapshot day; total: no bound.',
  values: RANK_PERIODS,
});

export const SeriesGranularity = builder.enumType('BrandtrackerSeriesGranularity', {
  description: 'Bucket size: daily, weekly (ISO weeks, from Monday) or monthly (calendar months).',
  values: GRANULARITIES,
});

export const TimelineStatus = builder.enumType('BrandtrackerTimelineStatus', {
  description: 'active: running at the snapshot day (with snapshotDate: first seen on or before it and still active or last seen on or after it), else active now.',
  values: ['all', 'active', 'inactive'] as const,
});

// The ads routes' sort keys, as an enum: the timeline takes no ad_order alias.
export const TimelineSort = builder.enumType('BrandtrackerTimelineSort', {
  description: 'newest: first seen, newest first; createdAt: created, newest first; longestRunning; reach (total); duplicates; adOrder (position in the page, first first); relevance: keyword rank, then reach.',
  values: BRANDTRACKER_ADS_SORTS,
});

export const LandingPageSort = builder.enumType('BrandtrackerLandingPageSort', { values: ['usageCount', 'longestRunning', 'totalImpressions'] as const });

export const TopAdStatus = builder.enumType('BrandtrackerTopAdsStatus', {
  description: 'active: the active ads (default); inactive: the inactive ones; all: both.',
  values: ['active', 'inactive', 'all'] as const,
});

export const CreativesSort = builder.enumType('BrandtrackerCreativesSort', { values: ['firstSeenAt', 'daysRunning', 'duplicates'] as const });

export const CreativesMediaType = builder.enumType('BrandtrackerCreativesMediaType', { description: 'all (default), image or video.', values: ['all', 'image', 'video'] as const });

export const CreativeFormat = builder.enumType('BrandtrackerCreativeFormat', { description: 'image, video, or unknown (carousels, dynamic and unknown formats).', values: ['image', 'video', 'unknown'] as const });

export const PartnersSort = builder.enumType('BrandtrackerPartnersSort', { values: ['activeAds', 'launchDate', 'reach', 'estimatedSpend'] as const });

export const SimpleSort = builder.enumType('BrandtrackerLandingPagesSimpleSort', { values: ['usageCount', 'activeAdsCount'] as const });
