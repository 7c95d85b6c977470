import { describe, expect, it } from 'vitest';
import { argumentsFromHttp } from '../../rest/arguments.js';
import { routes } from '../../rest/routes.js';
import { routeRequest } from '../../src/mcp/call.js';
import { schema } from '../../src/schema/index.js';

// Routes that read an argument away from their method's default (rest/routes.ts argsIn, nullArgs): the REST
// layer reads it there, and an MCP tool call sends it there.

const route = (method: string, path: string) => routes.find((r) => r.method === method && r.path === path)!;
const argsOf = (field: string) => schema.getMutationType()!.getFields()[field.slice('Mutation.'.length)].args;

describe('argument locations', () => {
  it('scope from the query string of a PATCH, the rest from its body; an explicit null is kept', () => {
    const update = route('PATCH', '/favorites/ads/folders/:folderId');
    const { values, violations } = argumentsFromHttp(update, argsOf(update.field), {
      pathParams: { folderId: 'f' },
      query: new URLSearchParams('scope=workspace&name=ignored'),
      body: { name: 'Renamed', parentId: null, scope: 'personal' },
    });
    expect(violations).toEqual([]);
    expect(values).toEqual({ folderId: 'f', scope: 'workspace', name: 'Renamed', parentId: null });
  });

  it('mode from the body of a DELETE, scope from its query string', () => {
    const remove = route('DELETE', '/favorites/emails/folders/:folderId');
    const missing = argumentsFromHttp(remove, argsOf(remove.field), { pathParams: { folderId: 'f' }, query: new URLSearchParams('mode=delete_items'), body: {} });
    expect(missing.violations).toEqual([
      { argument: 'scope', location: 'query-string', expected: ['scope should not be empty'] },
      { argument: 'mode', location: 'body', expected: ['mode should not be empty'] },
    ]);
  });

  it('an MCP call sends each argument where the route reads it', async () => {
    const update = routeRequest(route('PATCH', '/favorites/ads/folders/:folderId'), { folderId: 'f1', scope: 'personal', name: 'N', parentId: null }, 'Bearer k', 'http://api.test');
    expect(update.url).toBe('http://api.test/v1/favorites/ads/folders/f1?scope=personal');
    expect(await update.json()).toEqual({ name: 'N', parentId: null });
    const remove = routeRequest(route('DELETE', '/favorites/shops/folders/:folderId'), { folderId: 'f2', scope: 'workspace', mode: 'move_items_to_root' }, null, 'http://api.test');
    expect(remove.method).toBe('DELETE');
    expect(remove.url).toBe('http://api.test/v1/favorites/shops/folders/f2?scope=workspace');
    expect(await remove.json()).toEqual({ mode: 'move_items_to_root' });
    const plain = routeRequest(route('DELETE', '/favorites/ads/:adId'), { adId: 'facebook_1', scope: 'workspace' }, null, 'http://api.test');
    expect(plain.url).toBe('http://api.test/v1/favorites/ads/facebook_1?scope=workspace');
    expect(plain.body).toBeNull();
  });
});
