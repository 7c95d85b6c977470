import { z } from 'zod';
import { builder } from '../builder.js';
import { AdsGrowthCondition, growthConditionList, TrafficGrowthCondition } from './growth-filter.js';
import { count } from './ranges.js';

// Arguments of the lists filtered by a shop's figures, declared once: the shops lists filter the shops, POST
// /v1/emails/query the sending shop. The shops list engine (src/schema/shops/service/search.ts) turns them into conditions.

/** A Trustpilot rating, 0..5. */
const rating = z.number().min(0).max(5);

export const trustpilotArgs = () =>
  builder.args((t) => ({
    minTrustpilotRating: t.float({ validate: rating }),
    maxTrustpilotRating: t.float({ validate: rating }),
    minTrustpilotReviewCount: t.int({ validate: count }),
    maxTrustpilotReviewCount: t.int({ validate: count }),
  }));

/** The traffic and ads growth conditions (POST /v1/shops/query adds the reach ones); `descriptions` say whose growth. */
export const growthArgs = (descriptions: { trafficGrowth?: string; adsGrowth?: string } = {}) =>
  builder.args((t) => ({
    trafficGrowth: t.field({ type: [TrafficGrowthCondition], description: descriptions.trafficGrowth, validate: growthConditionList }),
    adsGrowth: t.field({
      type: [AdsGrowthCondition],
      description: descriptions.adsGrowth ?? 'Ads first seen in the window against the window before.',
      validate: growthConditionList,
    }),
  }));
