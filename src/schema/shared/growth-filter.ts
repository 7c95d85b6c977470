import { z } from 'zod';
import { latestHistoryDay } from '../../db/partitions.js';
import { Prisma } from '../../generated/prisma/client.js';
import { builder } from '../builder.js';

// The growth filters of POST /v1/ads/query and POST /v1/advertisers/query: OR groups (`anyOf`) of AND-ed rules
// (`all`), each rule `{ period, operator, value }` on a growth in percent over the period (the reference's shape; the
// shops query writes the same conditions as a flat list). The periods are the shops query's, but an ad's reach
// growth, which is read from its stored 7- and 30-day gains.

// The shops query's form (and the emails query's, on the sending shop): a flat list joined by `operator`.

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

/** A growth threshold in percent: -100 (lost everything) or more. */
const growthValue = z.number({ message: '{name} needs a value in each rule: a growth in percent' }).min(-100, '{name} values are growths in percent, -100 or more').max(1e9);

/** Up to 20 growth conditions, each with its value. */
export const growthConditionList = z.array(z.object({ value: growthValue }).loose()).max(20);

export const GrowthRuleOperator = builder.enumType('GrowthRuleOperator', {
  values: ['gte', 'gt', 'lte', 'lt', 'greater', 'lower'] as const,
  description: 'How the growth compares with value: gte (>=), gt (>), lte (<=), lt (<); greater and lower are gte and lte, as in the shops query.',
});

/** The periods an ad's reach growth is stored for (its 7- and 30-day gains). */
export const AdReachGrowthPeriod = builder.enumType('AdReachGrowthPeriod', { values: ['last7d', 'last30d'] as const });

export type GrowthRule = { period: string; operator: typeof GrowthRuleOperator.$inferType; value: number };
export type GrowthFilter = { anyOf: { all: GrowthRule[] }[] };

/** Days of each period a growth rule (or a shops-query growth condition) names. */
export const GROWTH_PERIOD_DAYS: Record<string, number> = { last24h: 1, last7d: 7, last14d: 14, last30d: 30, last60d: 60, last90d: 90, last180d: 180 };

const growthFilterInput = <P>(name: string, period: P, meaning: string) => {
  const Rule = builder.inputType(`${name}Rule`, {
    fields: (t) => ({
      period: t.field({ type: period as typeof TrafficGrowthPeriod, required: true }),
      operator: t.field({ type: GrowthRuleOperator, required: true }),
      value: t.float({ required: true, description: 'Threshold in percent (-100 = lost everything, 100 = doubled).' }),
    }),
  });
  const Group = builder.inputType(`${name}Group`, { fields: (t) => ({ all: t.field({ type: [Rule], required: true }) }) });
  return builder.inputType(name, {
    description: `${meaning} OR groups (anyOf) of AND-ed rules (all); a row whose growth is unknown (nothing to compare with) matches no rule.`,
    fields: (t) => ({ anyOf: t.field({ type: [Group], required: true }) }),
  });
};

export const TrafficGrowthFilter = growthFilterInput('TrafficGrowthFilter', TrafficGrowthPeriod, "The primary shop's monthly visits, now against the period's start.");
export const AdsGrowthFilter = growthFilterInput('AdsGrowthFilter', AdsGrowthPeriod, "The page's ads first seen in the period against the period before.");
export const PageReachGrowthFilter = growthFilterInput('PageReachGrowthFilter', ReachGrowthPeriod, "The page's impressions in the period against the period before.");
export const AdReachGrowthFilter = growthFilterInput('AdReachGrowthFilter', AdReachGrowthPeriod, "The ad's reach now against the period's start (its stored 7- or 30-day gain).");

/** 1..10 groups of 1..10 rules, values in percent from -100. */
export const growthFilter = z.object({
  anyOf: z.array(z.object({
    all: z.array(z.object({ value: growthValue }).loose())
      .min(1, '{name} needs at least one rule in each group').max(10),
  })).min(1, '{name} needs at least one group').max(10),
});

/** The shops query's flat list as groups: `operator` links a condition to the next, and binds tighter than or. */
export function groupsOfConditions(conditions: GrowthCondition[]): GrowthFilter {
  const anyOf: GrowthFilter['anyOf'] = [{ all: [] }];
  conditions.forEach((condition, index) => {
    anyOf[anyOf.length - 1].all.push({ period: condition.period, operator: condition.comparison, value: condition.value! });
    if (index < conditions.length - 1 && condition.operator === 'or') anyOf.push({ all: [] });
  });
  return { anyOf };
}

const COMPARE = { gte: '>=', greater: '>=', gt: '>', lte: '<=', lower: '<=', lt: '<' } as const;

/**
 * `(rule AND rule) OR (rule …)` over the growth expression of each rule's period; null when there is no filter.
 * A growth that cannot be computed is SQL null, so its comparison is not true and the row does not match.
 * `fraction`: the expression is a stored fraction (0.18 = +18 %). It is then compared twice: as stored, against the
 * threshold divided by 100 and widened by 1e-9 (so the column's index serves the bound), and exactly, in decimal
 * (the column as numeric, 15 digits, times 100: 0.57 is 57, where the double 0.57 * 100 is 56.99999999999999).
 * A growth that meets the threshold exactly matches on every route.
 */
export function growthMatch(filter: GrowthFilter | null | undefined, growthOver: (days: number) => Prisma.Sql, fraction = false): Prisma.Sql | null {
  if (!filter) return null;
  const compare = (rule: GrowthRule) => {
    const growth = growthOver(GROWTH_PERIOD_DAYS[rule.period]);
    const op = Prisma.raw(COMPARE[rule.operator]);
    if (!fraction) return Prisma.sql`${growth} ${op} ${rule.value}::float8`;
    const below = rule.operator === 'lte' || rule.operator === 'lower' || rule.operator === 'lt';
    const coarse = rule.value / 100 + (below ? 1e-9 : -1e-9);
    return Prisma.sql`(${growth} ${Prisma.raw(below ? '<=' : '>=')} ${coarse}::float8 AND ${growth}::numeric * 100 ${op} ${rule.value}::numeric)`;
  };
  const groups = filter.anyOf.map((group) => Prisma.join(group.all.map(compare), ' AND '));
  return Prisma.sql`((${Prisma.join(groups, ') OR (')}))`;
}

/** The longest period any rule names: how far back the page-level growths read. */
export function longestPeriod(filter: GrowthFilter): number {
  return Math.max(...filter.anyOf.flatMap((group) => group.all.map((rule) => GROWTH_PERIOD_DAYS[rule.period])));
}

/** A growth in percent, (now - then) * 100 / then, a float8 (as the rules' values are); null when `then` is 0 or unknown. */
export const growthPercent = (now: Prisma.Sql, then: Prisma.Sql) => Prisma.sql`((${now} - ${then}) * 100::float8 / nullif(${then}, 0))`;

const sql = Prisma.sql;
/** The last day of the pages' daily snapshots: the end of every page window (read from its newest month). */
export const latestPageDay = () => latestHistoryDay('advertiser_metric_days');

/** The traffic growth of shop `s`: its stored 30-, 90- or 180-day growth, the shortest covering the period, a fraction (match with fraction = true). */
export function shopTrafficGrowth(days: number): Prisma.Sql {
  return days <= 30 ? sql`s."trafficGrowth30d"` : days <= 90 ? sql`s."trafficGrowth90d"` : sql`s."trafficGrowth180d"`;
}

/**
 * The pages (advertiser ids) whose ads growth matches: the page's ads first seen in the period against those first
 * seen in the period before it. One grouped read of the ads first seen in the longest period twice over (an index
 * range on firstSeenAt), not a count per ad.
 */
export function pagesByAdsGrowth(filter: GrowthFilter): Prisma.Sql {
  const since = (days: number) => sql`now() - ${days} * interval '1 day'`;
  const launched = (from: number, to: number) =>
    sql`count(*) FILTER (WHERE o."firstSeenAt" >= ${since(from)}${to ? sql` AND o."firstSeenAt" < ${since(to)}` : sql``})`;
  const match = growthMatch(filter, (days) => growthPercent(launched(days, 0), launched(2 * days, days)))!;
  return sql`SELECT o."advertiserId" FROM "ads" o WHERE o."firstSeenAt" >= ${since(2 * longestPeriod(filter))} GROUP BY o."advertiserId" HAVING ${match}`;
}

/**
 * The pages whose reach growth matches: the page's impressions over the period against the period before it (its
 * daily snapshots, read from the (date, advertiserId, totalImpressions) index alone).
 */
export function pagesByReachGrowth(filter: GrowthFilter): Prisma.Sql {
  const impressions = (from: number, to: number) =>
    sql`sum(m."totalImpressions") FILTER (WHERE m."date" > ${latestPageDay()} - ${from}::int AND m."date" <= ${latestPageDay()} - ${to}::int)`;
  const match = growthMatch(filter, (days) => growthPercent(impressions(days, 0), impressions(2 * days, days)))!;
  return sql`SELECT m."advertiserId" FROM "advertiser_metric_days" m WHERE m."date" > ${latestPageDay()} - ${2 * longestPeriod(filter)}::int GROUP BY m."advertiserId" HAVING ${match}`;
}
