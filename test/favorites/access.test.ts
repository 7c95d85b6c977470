import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes } from '../../rest/routes.js';
import { locationOf } from '../../rest/routes.js';
import { createKey, createUser } from '../../src/auth/admin.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { savingScenario } from '../boards/scenario.js';
import { expectNotFound, ok } from '../boards/support.js';

// Scopes × access levels × roles for the three favorites families, the scope parameter on every route, and
// isolation between workspaces (a foreign folder or saved id answers like a missing one, before any change).

type Key = { apiKey: string; workspaceId: string };
let t: TestApp;
let shopGlow: string;
const keys: Record<string, Key> = {};

beforeAll(async () => {
  t = await createTestApp(async (db) => {
    ({ shopGlow } = await savingScenario(db));
  });
  keys.full_access = await t.newKey({ slug: 'matrix' });
  for (const role of ['owner', 'admin', 'member', 'readonly'] as const) {
    const { userId } = await createUser(t.db.prisma, { workspace: 'matrix', name: role, role });
    keys[role] = await createKey(t.db.prisma, { workspace: 'matrix', name: role, access: 'delegated_user', user: userId });
  }
  keys.other = await t.newKey({ slug: 'elsewhere' });
});
afterAll(() => t?.close());

const families = () => [
  { name: 'ads', add: { adId: 'facebook_9001' } },
  { name: 'shops', add: { websiteId: shopGlow } },
  { name: 'emails', add: { emailId: 501 } },
];

describe('scope × access level × role', () => {
  it('personal needs a delegated user (403 for full_access); writes need a writer role; nothing changes on a 403', async () => {
    const expected: Record<string, { workspace: [number, number]; personal: [number, number] }> = {
      full_access: { workspace: [200, 200], personal: [403, 403] },
      owner: { workspace: [200, 200], personal: [200, 200] },
      admin: { workspace: [200, 200], personal: [200, 200] },
      member: { workspace: [200, 200], personal: [200, 200] },
      readonly: { workspace: [200, 403], personal: [200, 403] },
    };
    for (const family of families()) {
      for (const [who, byScope] of Object.entries(expected)) {
        for (const scope of ['workspace', 'personal'] as const) {
          const as = keys[who].apiKey;
          const before = await t.db.prisma.boardItem.count();
          const read = await t.rest('GET', `/favorites/${family.name}?scope=${scope}`, { key: as });
          const write = await t.rest('POST', `/favorites/${family.name}`, { key: as, body: { scope, ...family.add } });
          const folder = await t.rest('POST', `/favorites/${family.name}/folders`, { key: as, body: { scope, name: `${who} ${scope}` } });
          const label = `${family.name} ${who} ${scope}`;
          expect([read.status, write.status], label).toEqual(byScope[scope]);
          expect(folder.status, label).toBe(byScope[scope][1]);
          for (const res of [read, write, folder]) if (res.status === 403) expect(res.body.error.code).toBe('forbidden');
          if (write.status === 403) expect(await t.db.prisma.boardItem.count(), label).toBe(before);
          if (write.status === 200 && scope === 'personal') {
            // A personal favorite is its user's alone: not in the workspace scope, not in another user's.
            const mine = ok(await t.rest('GET', `/favorites/${family.name}?scope=personal`, { key: as })).data;
            expect(mine.map((f: { id: unknown }) => f.id), label).toContain(write.body.data.id);
            const others = ok(await t.rest('GET', `/favorites/${family.name}?scope=personal`, { key: keys[who === 'owner' ? 'member' : 'owner'].apiKey })).data;
            expect(others.map((f: { id: unknown }) => f.id), label).not.toContain(write.body.data.id);
          }
        }
      }
    }
  });
});

describe('the scope parameter', () => {
  it('is required on every favorites route, and validated: missing or bogus is a 400 naming it where it is sent', async () => {
    const folderId = '00000000-0000-4000-8000-000000000009';
    const fill = (path: string) => path.replace(':adId', 'facebook_9001').replace(':websiteId', shopGlow).replace(':emailId', '501').replace(':folderId', folderId)
      .replace(':favoriteId', '1');
    const favorites = routes.filter((route) => route.path.startsWith('/favorites/'));
    expect(favorites).toHaveLength(33);
    for (const route of favorites) {
      const location = locationOf(route, 'scope');
      for (const scope of [undefined, 'everyone']) {
        const query = location === 'query-string' && scope ? `?scope=${scope}` : '';
        const body = location === 'body' ? (scope ? { scope } : {}) : route.method === 'GET' ? undefined : {};
        const res = await t.rest(route.method, `${fill(route.path)}${query}`, { key: keys.owner.apiKey, body });
        expect(res.status, `${route.method} ${route.path} scope=${scope}`).toBe(400);
        const fields = res.body.error.details.validationErrors.map((v: { field: string }) => v.field);
        expect(fields, `${route.method} ${route.path}`).toContain(`${location}.scope`);
      }
    }
  });
});

describe('isolation between workspaces', () => {
  it('a foreign folder id or saved id answers exactly like a missing one, and changes nothing', async () => {
    const a = keys.full_access.apiKey;
    const b = keys.other.apiKey;
    const missingFolder = '00000000-0000-4000-8000-00000000000a';
    for (const family of families()) {
      const folder = ok(await t.rest('POST', `/favorites/${family.name}/folders`, { key: a, body: { scope: 'workspace', name: 'A only' } })).data;
      const saved = ok(await t.rest('POST', `/favorites/${family.name}`, { key: a, body: { scope: 'workspace', ...family.add, folderId: folder.id } })).data;
      const missingSaved = family.name === 'ads' ? 987654 : '00000000-0000-4000-8000-00000000000b';
      const byFolder: [string, (id: string) => string, unknown?][] = [
        ['GET', (id) => `/favorites/${family.name}?scope=workspace&folderId=${id}`],
        ['POST', () => `/favorites/${family.name}`, undefined],
        ['PATCH', (id) => `/favorites/${family.name}/folders/${id}?scope=workspace`, { name: 'Stolen' }],
        ['DELETE', (id) => `/favorites/${family.name}/folders/${id}?scope=workspace`, { mode: 'delete_items' }],
        ['PATCH', (id) => `/favorites/${family.name}/folders/${id}/visibility?scope=workspace`, { visibility: 'organization' }],
        ...(family.name === 'ads' ? [['POST', (id: string) => `/favorites/ads/folders/${id}/share?scope=workspace`] as [string, (id: string) => string]] : []),
      ];
      for (const [method, path, body] of byFolder) {
        const send = (id: string) => t.rest(method, path(id), { key: b, body: body ?? (method === 'POST' ? { scope: 'workspace', ...family.add, folderId: id } : undefined) });
        const foreign = await send(folder.id);
        const absent = await send(missingFolder);
        expectNotFound(foreign);
        expectNotFound(absent);
        expect(foreign.body.error.message.replace(folder.id, 'ID')).toBe(absent.body.error.message.replace(missingFolder, 'ID'));
      }
      for (const [method, path, body] of [
        ['PATCH', (id: string | number) => `/favorites/${family.name}/saved/${id}/folder?scope=workspace`, { folderId: null }],
        ['DELETE', (id: string | number) => `/favorites/${family.name}/saved/${id}?scope=workspace`, undefined],
      ] as const) {
        const foreign = await t.rest(method, path(saved.id), { key: b, body });
        const absent = await t.rest(method, path(missingSaved), { key: b, body });
        expectNotFound(foreign);
        expect(foreign.body.error.message.replace(String(saved.id), 'ID')).toBe(absent.body.error.message.replace(String(missingSaved), 'ID'));
      }
      const still = ok(await t.rest('GET', `/favorites/${family.name}?scope=workspace&folderId=${folder.id}`, { key: a })).data;
      expect(still.map((f: { id: unknown }) => f.id)).toEqual([saved.id]);
      expect((await t.db.prisma.board.findUniqueOrThrow({ where: { id: folder.id } })).name).toBe('A only');
      expect(ok(await t.rest('GET', `/favorites/${family.name}?scope=workspace`, { key: b })).data).toEqual([]);
    }
  });
});
