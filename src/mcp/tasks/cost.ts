import { priceOf, reserveFor, type FieldName, type Price } from '../../metering/prices.js';
import type { RestRoute } from '../../../rest/routes.js';
import type { Params } from './params.js';

// What a task costs, from the price table and nothing else: each route it calls holds what that route holds
// when called directly (metering/prices.ts reserveFor), so its description, its dry run and its up-front refusal
// follow a price change with no edit here.

export type Prices = (field: string) => Price | undefined;

/**
 * A route a task calls. `rowsFrom` names the task argument passed as the route's limit argument (a perRow route
 * without it is called with the route's default limit); `repeatFrom` the argument bounding how often it is called;
 * `oneOf` a group of calls of which one call runs (the task picks the route), so the group holds its dearest.
 */
export type TaskCall = { field: FieldName; rowsFrom?: string; repeatFrom?: string; oneOf?: string };

export type CallCost = { field: FieldName; reserve: number };

const metered = (price: Price | undefined): price is Exclude<Price, { kind: 'free' }> => price !== undefined && price.kind !== 'free';

/** The most each metered call can charge for these arguments (the holds its route calls take). */
export function callCosts(calls: readonly TaskCall[], input: Record<string, unknown>, prices: Prices = priceOf): CallCost[] {
  const dearest = new Map<string, CallCost>();
  const costs = calls.flatMap(({ field, rowsFrom, repeatFrom, oneOf }) => {
    const price = prices(field);
    if (!metered(price)) return [];
    const args = price.kind === 'perRow' && rowsFrom ? { [price.limitArg]: input[rowsFrom] } : {};
    const times = repeatFrom ? Number(input[repeatFrom]) : 1;
    const cost = { field, reserve: reserveFor(price, args) * times };
    if (!oneOf) return [cost];
    if ((dearest.get(oneOf)?.reserve ?? -1) < cost.reserve) dearest.set(oneOf, cost);
    return [];
  });
  return [...costs, ...dearest.values()];
}

export const totalOf = (costs: readonly CallCost[]) => costs.reduce((total, cost) => total + cost.reserve, 0);

export function defaultsOf(params: Params): Record<string, number> {
  return Object.fromEntries(Object.entries(params).flatMap(([name, param]) => (param.type === 'integer' ? [[name, param.default]] : [])));
}

const label = (routes: readonly RestRoute[], field: string) => {
  const route = routes.find((r) => r.field === field);
  return route ? `${route.method} /v1${route.path.replace(/:([A-Za-z]+)/g, '{$1}')}` : field;
};

/** The sentence of a task's description that states its cost. */
export function costSentence(calls: readonly TaskCall[], params: Params, routes: readonly RestRoute[], prices: Prices = priceOf): string {
  const parts = calls.flatMap(({ field, rowsFrom, repeatFrom }) => {
    const price = prices(field);
    if (!metered(price)) return [];
    const per = repeatFrom ? ` per \`${repeatFrom}\`` : '';
    if (price.kind === 'perItem') return [`1 credit per item ${label(routes, field)} finds${per}`];
    return [`1 credit per row ${label(routes, field)} returns (at most \`${rowsFrom ?? price.limitArg}\`${per})`];
  });
  if (!parts.length) return 'Free: every route it calls is free.';
  const most = totalOf(callCosts(calls, defaultsOf(params), prices));
  return `Costs at most ${most} credit${most === 1 ? '' : 's'} with the default arguments: ${parts.join('; ')}; the other calls are free. Charged by those routes as when called directly.`;
}
