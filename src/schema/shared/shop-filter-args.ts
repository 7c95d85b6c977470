import { z } from 'zod';
import { builder } from '../builder.js';
import { count } from './ranges.js';

// Arguments of the lists filtered by a shop's figures, declared once: the shops lists filter the shops, POST
// /v1/emails/query the sending shop. The shops list engine (src/schema/shops/sql.ts) turns them into conditions.

/** A growth condition: `{ period, comparison, value, operator }` on a growth in percent. */
export type GrowthCondition = { period: string; comparison: 'greater' | 'lower'; value?: number | null; operator?: 'and' | 'or' | null };

export const GrowthComparison = builder.enumType('GrowthComparison', { values: ['greater', 'lower'] as const, description: 'greater: growth >= value; lower: growth <= value.' });
export const GrowthOperator = builder.enumType('GrowthOperator', { values: ['and', 'or'] as const, description: 'Links a condition to the next one; and binds tighter than or.' });
export const TrafficGrowthPeriod = builder.enumType('TrafficGrowthPeriod', { values: ['last30d', 'last90d', 'last180d'] as const });
export const AdsGrowthPeriod = builder.enumType('AdsGrowthPeriod', { values: ['last7d', 'last30d', 'last90d'] as const });
export const ReachGrowthPeriod = builder.enumType('ReachGrowthPeriod', { values: ['last7d', 'last14d', 'last30d', 'last60d', 'last90d'] as const });

const growthInput = <P>(name: string, period: P) =>
  builder.inputType(name, {
    fields: (t) => ({
      period: t.field({ type: period as typeof TrafficGrowthPeriod, required: true }),
      value: t.float({ description: 'Threshold in percent (-100 = lost everything).' }),
      comparison: t.field({ type: GrowthComparison, required: true }),
      operator: t.field({ type: GrowthOperator }),
    }),
  });
export const TrafficGrowthCondition = growthInput('TrafficGrowthCondition', TrafficGrowthPeriod);
export const AdsGrowthCondition = growthInput('AdsGrowthCondition', AdsGrowthPeriod);
export const ReachGrowthCondition = growthInput('ReachGrowthCondition', ReachGrowthPeriod);

/** Up to 20 growth conditions. */
export const growthConditionList = z.array(z.unknown()).max(20);

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
