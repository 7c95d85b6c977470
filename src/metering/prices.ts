/**
 * What each root field costs, keyed by GraphQL field, so GraphQL pays exactly what REST pays.
 * Every field routed in rest/routes.ts must have an entry (a test enforces it). Source: ../shared/spec/prices.md.
 *
 * - `free`: never charged.
 * - `perRow`: one credit per returned row. A call reserves its maximum before it runs (the `limitArg`
 *   argument, or `defaultLimit`) and settles to the rows returned: the length of the result's `rowsAt`
 *   list (`data` for page lists), or of the result itself when `rowsAt` is omitted.
 * - `perItem`: one credit when the field returns an item (null or not found costs nothing).
 */
export type Price =
  | { kind: 'free' }
  | { kind: 'perRow'; limitArg: string; defaultLimit: number; rowsAt?: string }
  | { kind: 'perItem' };

export type FieldName = `Query.${string}` | `Mutation.${string}`;

const free: Price = { kind: 'free' };

export const PRICES: Record<FieldName, Price> = {
  'Query.apiInfo': free,
  'Query.health': free,
  'Query.systemFreshness': free,
  'Query.me': free,
  'Query.workspace': free,
  'Query.usage': free,
  'Query.ads': free,
  'Query.adsQuery': free,
  'Query.ad': free,
  'Query.adReachHistory': free,
  'Query.adMediaUrl': free,
  'Mutation.adShare': free,
};
