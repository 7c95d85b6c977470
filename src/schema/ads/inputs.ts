import { builder } from '../builder.js';
import { countries, countryFilterInput } from '../shared/countries.js';

// The input objects of POST /v1/ads/query.

export const CountryFilterInput = countryFilterInput('CountryFilterInput', 'ISO 3166-1 alpha-2 country codes to include and/or exclude.');

export const MarketFilterInput = builder.inputType('MarketFilterInput', {
  fields: (t) => ({
    main: t.stringList({ description: 'Countries that must be the primary market (EU/UK transparency data).', validate: countries }),
    among: t.stringList({ description: 'Countries that may appear among the markets.', validate: countries }),
    exclude: t.stringList({ description: 'Countries to exclude from the markets.', validate: countries }),
  }),
});

export const RankDirection = builder.enumType('RankDirection', { values: ['rising', 'falling', 'stable'] as const });
export const AdRankMode = builder.enumType('AdRankMode', { values: ['percentile', 'rank'] as const });
export const AdRankBasis = builder.enumType('AdRankBasis', { values: ['current', 'alltime'] as const });

const GrowthRankRuleInput = builder.inputType('GrowthRankRuleInput', {
  fields: (t) => ({
    direction: t.field({ type: RankDirection, required: true }),
    period: t.string({ description: 'A rank-delta window (7d, 14d, 30d); used when every rule names the same one.' }),
    minChange: t.float({ description: 'Accepted for forward compatibility; use minRankDelta.' }),
    unit: t.string({ description: 'Accepted for forward compatibility.' }),
  }),
});
const GrowthRankGroupInput = builder.inputType('GrowthRankGroupInput', {
  fields: (t) => ({ all: t.field({ type: [GrowthRankRuleInput], required: true }) }),
});
export const GrowthRankFilterInput = builder.inputType('GrowthRankFilterInput', {
  description: 'Rank trend: every direction named in any rule is accepted (ORed); grouping, minChange and unit are ignored.',
  fields: (t) => ({ anyOf: t.field({ type: [GrowthRankGroupInput], required: true }) }),
});
