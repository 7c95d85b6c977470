import type { TestApp } from '../../support/app.js';

// How the isolation matrix (test/security/isolation.test.ts) reaches each route that takes an id. Every route with a
// path parameter, or with an id argument that is not a market id (MARKET_ID_ARGUMENTS), must be declared, in a file
// of this folder (one per domain: `test/security/isolation/<domain>.ts`, picked up without an edit elsewhere):
//
//   declare('GET /boards/:boardId', owned(async ({ t, key }) => {
//     const board = (await t.rest('POST', '/boards', { key, body: { name: 'Secret plans' } })).body.data;
//     return { args: { boardId: board.id }, secrets: [board.id], readBack: async () => (await t.rest('GET', `/boards/${board.id}`, { key })).body.data };
//   }));
//
// A route without a declaration fails the matrix; so does a declaration of a route that no longer exists.

export type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
export type RouteKey = `${Method} /${string}`;

/** Workspace A: where the objects are made. `t` is the shared app; `key` is A's full-access key. */
export type Owner = { t: TestApp; key: string; workspaceId: string };

export type Made = {
  /** The route's arguments (path, query or body, by name) that name A's object; missing ones take `args`. */
  args: Record<string, unknown>;
  /** Strings that must never reach workspace B (ids, slugs, names): checked in every answer B gets, on every route. */
  secrets: string[];
  /** A's object as A reads it: unchanged after B's calls. */
  readBack(): Promise<unknown>;
};

export type Declaration =
  /** The route takes the id of a workspace object: B's call with A's id answers exactly as with an id that does not exist (404 when the id is in the path), and A's object is unchanged. */
  | { kind: 'owned'; make(owner: Owner): Promise<Made>; /** Further valid arguments of the call (a body's other fields). */ args?: Record<string, unknown> }
  /** The route returns the caller's own object for a market id (a share of an ad): B gets its own, never A's. */
  | { kind: 'perWorkspace'; args: Record<string, unknown>; /** Strings of A's answer that B's answer must not hold. */ secretsOf(answer: { data?: unknown }): string[] }
  /** The route's ids name market objects, the same for every workspace; `args` is a valid call (for the list check). */
  | { kind: 'global'; reason: string; args: Record<string, unknown> };

export const declarations = new Map<RouteKey, Declaration>();

export function declare(route: RouteKey, declaration: Declaration): void {
  if (declarations.has(route)) throw new Error(`${route} is declared twice in test/security/isolation/`);
  declarations.set(route, declaration);
}

export const owned = (make: (owner: Owner) => Promise<Made>, args?: Record<string, unknown>): Declaration => ({ kind: 'owned', make, args });
export const global = (reason: string, args: Record<string, unknown>): Declaration => ({ kind: 'global', reason, args });

/**
 * Id arguments that name market objects (global data): a route whose only ids are these needs no declaration.
 * Anything else ending in Id/Ids does (boardId, folderId, brandtrackerIds, workspaceLinkIds, parentBoardId, ...).
 */
export const MARKET_ID_ARGUMENTS: ReadonlySet<string> = new Set([
  'adId', 'adIds', 'advertiserId', 'advertiserIds', 'shopId', 'shopIds', 'websiteId', 'productId', 'productIds', 'emailId',
  'categoryIds', 'pixelIds', 'excludePixelIds', 'shopifyAppIds', 'excludeShopifyAppIds', 'themeIds', 'technologyIds',
  'tiktokPageId', 'tiktokPageIds', 'facebookPageId', 'partnerIds', 'searchId',
  'excludeThemeIds', 'excludeCategoryIds', 'promotionTypeIds', 'emailCategoryIds', 'eventIds',
]);
