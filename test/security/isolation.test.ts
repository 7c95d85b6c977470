/// <reference types="vite/client" />
import { randomUUID } from 'node:crypto';
import { getNamedType, isObjectType, type GraphQLField } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { locationOf } from '../../rest/routes.js';
import { routes, type RestRoute } from '../../rest/routes.js';
import { schema } from '../../src/schema/index.js';
import { createTestApp, type HttpResult, type TestApp } from '../support/app.js';
import { adsScenario } from '../ads/scenario.js';
import { tiktokScenario } from '../tiktok/scenario.js';
import { googleAdsScenario } from '../google-ads/scenario.js';
import { declarations, MARKET_ID_ARGUMENTS, type Declaration, type Made, type RouteKey } from './isolation/registry.js';

// The isolation matrix (OWASP API1), generated from the route table: for every route that takes the id of a
// workspace object, workspace A makes the object and workspace B calls the route with A's id, on REST and GraphQL:
// the answer is exactly the one for an id that does not exist, and A's object is unchanged. Every list route, called
// by B, never shows anything of A's. How to make each object is declared per route in test/security/isolation/.
import.meta.glob('./isolation/*.ts', { eager: true });

const keyOf = (route: RestRoute): RouteKey => `${route.method} ${route.path}` as RouteKey;
const fieldOf = (route: RestRoute): GraphQLField<unknown, unknown> => {
  const [kind, name] = route.field.split('.') as ['Query' | 'Mutation', string];
  return (kind === 'Query' ? schema.getQueryType() : schema.getMutationType())!.getFields()[name]!;
};
const pathNames = (route: RestRoute) => [...route.path.matchAll(/:([A-Za-z]+)/g)].map((m) => m[1]!);

/** Why a route must be declared: its path parameters, and its id arguments that are not market ids. */
export function idArguments(route: RestRoute, field: GraphQLField<unknown, unknown>): string[] {
  return [...new Set([...pathNames(route), ...field.args.map((a) => a.name).filter((name) => /Ids?$/.test(name) && !MARKET_ID_ARGUMENTS.has(name))])];
}

let t: TestApp;
const a = { key: '', workspaceId: '' };
const b = { key: '', workspaceId: '' };
const secrets: string[] = [];
const made = new Map<RouteKey, Made>();

function call(route: RestRoute, key: string, args: Record<string, unknown>): Promise<HttpResult> {
  let path = route.path;
  const rest: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(args)) {
    if (path.includes(`:${name}`)) path = path.replace(`:${name}`, encodeURIComponent(String(value)));
    else rest[name] = value;
  }
  // Each argument where the route reads it (the method's default, or the route's argsIn).
  const query = new URLSearchParams();
  const body: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(rest)) {
    if (locationOf(route, name) === 'query-string') for (const item of [value].flat()) query.append(name, String(item));
    else body[name] = value;
  }
  const url = `${path}${query.size ? `?${query}` : ''}`;
  return t.rest(route.method, url, { key, body: route.method === 'GET' || (route.method === 'DELETE' && !Object.keys(body).length) ? undefined : body });
}

function graphql(route: RestRoute, key: string, args: Record<string, unknown>) {
  const field = fieldOf(route);
  const used = field.args.filter((arg) => arg.name in args);
  const declarations = used.map((arg) => `$${arg.name}: ${String(arg.type)}`).join(', ');
  const selection = isObjectType(getNamedType(field.type)) ? ' { __typename }' : '';
  const query = `${route.field.startsWith('Mutation.') ? 'mutation' : 'query'}${declarations ? `(${declarations})` : ''} { ${field.name}${used.length ? `(${used.map((arg) => `${arg.name}: $${arg.name}`).join(', ')})` : ''}${selection} }`;
  return t.graphql(query, Object.fromEntries(used.map((arg) => [arg.name, args[arg.name]])), key);
}

/** An id of the same shape that names nothing. */
function missingLike(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(missingLike);
  if (typeof value === 'number') return 2_000_000_000 - Math.floor(value % 1000);
  if (typeof value === 'string' && /^[0-9a-f-]{36}$/i.test(value)) return randomUUID();
  if (typeof value === 'string') return `missing${randomUUID().slice(0, 8)}`;
  return value;
}

/** A body without its request id, with the ids of both calls written alike, so two answers can be compared. */
function normalised(res: HttpResult, ids: unknown[]): string {
  let text = JSON.stringify({ status: res.status, body: res.body }).replaceAll(res.headers.get('x-request-id') ?? '\u0000', '<requestId>');
  for (const id of ids.flat()) if (typeof id === 'string' && id.length) text = text.replaceAll(JSON.stringify(id).slice(1, -1), '<id>');
  // Integer ids (folders, workspace links) echoed back to the caller who sent them are not A's data either.
  for (const id of ids.flat()) if (typeof id === 'number') text = text.replace(new RegExp(`(?<![0-9.])${id}(?![0-9.])`, 'g'), '<id>');
  return text;
}

beforeAll(async () => {
  t = await createTestApp(async (db) => {
    await adsScenario(db);
    await tiktokScenario(db);
    await googleAdsScenario(db);
  });
  const first = await t.newKey({ slug: `iso-a-${process.pid}` });
  Object.assign(a, { key: first.apiKey, workspaceId: first.workspaceId });
  const second = await t.newKey({ slug: `iso-b-${process.pid}` });
  Object.assign(b, { key: second.apiKey, workspaceId: second.workspaceId });
  for (const route of routes) {
    const declaration = declarations.get(keyOf(route));
    if (declaration?.kind !== 'owned') continue;
    const object = await declaration.make({ t, key: a.key, workspaceId: a.workspaceId });
    made.set(keyOf(route), object);
    secrets.push(...object.secrets);
  }
});
afterAll(() => t?.close());

describe('declarations', () => {
  it('every route that takes an id is declared (owned, per workspace or global), and every declaration names a route', () => {
    const undeclared = routes.filter((route) => idArguments(route, fieldOf(route)).length > 0 && !declarations.has(keyOf(route))).map(keyOf);
    expect(undeclared, 'declare these in test/security/isolation/<domain>.ts (see registry.ts)').toEqual([]);
    const stale = [...declarations.keys()].filter((key) => !routes.some((route) => keyOf(route) === key));
    expect(stale, 'declarations of routes that no longer exist').toEqual([]);
  });

  it('a new route with a workspace id and no declaration would fail the check above', () => {
    const board: RestRoute = { method: 'GET', path: '/widgets/:boardId', field: 'Query.ad', envelope: 'single', tags: [] };
    const moved: RestRoute = { method: 'POST', path: '/boards/move', field: 'Mutation.adShare', envelope: 'single', tags: [] };
    expect(idArguments(board, fieldOf(board))).toEqual(['boardId']);
    expect(declarations.has(keyOf(board))).toBe(false);
    const withLinks = { ...fieldOf(moved), args: [...fieldOf(moved).args, { ...fieldOf(moved).args[0]!, name: 'workspaceLinkIds' }, { ...fieldOf(moved).args[0]!, name: 'categoryIds' }] };
    expect(idArguments(moved, withLinks)).toEqual(['workspaceLinkIds']);
  });
});

describe('another workspace\'s id answers exactly like a missing one, on REST and GraphQL, and changes nothing', () => {
  const cases = routes.filter((route) => declarations.get(keyOf(route))?.kind === 'owned');
  it('has routes to check (boards, brandtrackers and favorites take the ids of workspace objects)', () => expect(cases.length).toBeGreaterThan(0));
  it.each(cases.map((route) => [keyOf(route), route] as const))('%s', async (_key, route) => {
    const declaration = declarations.get(keyOf(route)) as Extract<Declaration, { kind: 'owned' }>;
    const object = made.get(keyOf(route))!;
    const before = JSON.stringify(await object.readBack());
    const missing = Object.fromEntries(Object.entries(object.args).map(([name, value]) => [name, missingLike(value)]));
    const theirs = await call(route, b.key, { ...declaration.args, ...object.args });
    const none = await call(route, b.key, { ...declaration.args, ...missing });
    const ids = [...Object.values(object.args), ...Object.values(missing)];
    expect(normalised(theirs, ids)).toBe(normalised(none, ids));
    if (pathNames(route).length > 0) expect([theirs.status, theirs.body.error?.code]).toEqual([404, 'not_found']);
    const theirsGql = await graphql(route, b.key, { ...declaration.args, ...object.args });
    const noneGql = await graphql(route, b.key, { ...declaration.args, ...missing });
    expect(theirsGql.body.errors?.map((e: { extensions: { code: string } }) => e.extensions.code)).toEqual(noneGql.body.errors?.map((e: { extensions: { code: string } }) => e.extensions.code));
    expect(JSON.stringify(theirsGql.body.data ?? null)).toBe(JSON.stringify(noneGql.body.data ?? null));
    if (pathNames(route).length > 0) expect(theirsGql.body.errors?.[0]?.extensions.code).toBe('not_found');
    expect(JSON.stringify(await object.readBack()), 'A\'s object changed').toBe(before);
  });
});

describe('an object made per workspace for a market id is never another workspace\'s', () => {
  const cases = routes.filter((route) => declarations.get(keyOf(route))?.kind === 'perWorkspace');
  it.each(cases.map((route) => [keyOf(route), route] as const))('%s', async (_key, route) => {
    const declaration = declarations.get(keyOf(route)) as Extract<Declaration, { kind: 'perWorkspace' }>;
    const first = await call(route, a.key, declaration.args);
    expect(first.status).toBeLessThan(300);
    const own = declaration.secretsOf(first.body);
    secrets.push(...own);
    const theirs = await call(route, b.key, declaration.args);
    expect(theirs.status).toBeLessThan(300);
    for (const secret of own) expect(JSON.stringify(theirs.body)).not.toContain(secret);
    const gql = await graphql(route, b.key, declaration.args);
    for (const secret of own) expect(JSON.stringify(gql.body)).not.toContain(secret);
    const again = await call(route, a.key, declaration.args);
    expect(declaration.secretsOf(again.body), 'A\'s object changed').toEqual(own);
  });
});

describe('no read route shows workspace B anything of A\'s', () => {
  it('every Query route, called by B with valid arguments', async () => {
    // Run after the blocks above (vitest runs files' tests in order): `secrets` holds everything A made.
    expect(secrets.length).toBeGreaterThan(0);
    let checked = 0;
    for (const route of routes.filter((r) => r.field.startsWith('Query.'))) {
      const declaration = declarations.get(keyOf(route));
      const field = fieldOf(route);
      let args: Record<string, unknown> = {};
      if (declaration?.kind === 'global') args = declaration.args;
      else if (declaration?.kind === 'owned') args = { ...declaration.args, ...made.get(keyOf(route))!.args };
      else if (pathNames(route).length) continue;
      for (const arg of field.args) if (String(arg.type).endsWith('!') && arg.defaultValue === undefined && !(arg.name in args)) args[arg.name] = String(arg.type).startsWith('[') ? ['summer'] : 'summer';
      const res = await call(route, b.key, args);
      expect(res.status, keyOf(route)).toBeLessThan(500);
      const text = JSON.stringify(res.body);
      for (const secret of secrets) expect(text, `${keyOf(route)} shows B a value of A's`).not.toContain(secret);
      checked++;
    }
    expect(checked).toBeGreaterThan(10);
  });
});
