import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey, createUser } from '../../src/auth/admin.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { keyPaths } from '../support/shapes.js';
import { BT_A, BT_B, brandtrackerScenario, GAMMA_DOMAIN, PAGE_A, PAGE_B, PAGE_C } from './scenario.js';
import { BRANDTRACKER, BRANDTRACKER_CHANGE, BRANDTRACKER_DETAIL } from './shapes.js';

// Tracking a brand: the workspace link's state machine (create, repeat, delete, reactivate, rename), the list and
// the detail, quotas, roles, isolation between workspaces, audit events and Idempotency-Key, on both surfaces.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp(brandtrackerScenario);
});
afterAll(() => t?.close());

const as = (key: string) => ({
  get: (path: string) => t.rest('GET', path, { key }),
  post: (path: string, body: unknown, headers: Record<string, string> = {}) => t.rest('POST', path, { key, body, headers }),
  patch: (path: string, body: unknown) => t.rest('PATCH', path, { key, body }),
  del: (path: string, body?: unknown) => t.rest('DELETE', path, { key, body }),
});
const links = (workspaceId: string) => t.db.prisma.brandtrackerLink.findMany({ where: { workspaceId }, orderBy: { id: 'asc' } });
const audits = (workspaceId: string) => t.db.prisma.auditEvent.findMany({ where: { workspaceId }, orderBy: { id: 'asc' } });
const operations = (workspaceId: string) => t.db.prisma.brandtrackerQuotaOperation.count({ where: { workspaceId } });

describe('the state machine of a workspace link', () => {
  it('creates, repeats without change, deletes keeping the metadata, reactivates the same link, renames', async () => {
    const { apiKey, workspaceId, credentialId } = await t.newKey();
    const api = as(apiKey);

    const created = await api.post('/brandtrackers', { facebookPageId: PAGE_A });
    expect(created.status).toBe(200);
    expect(created.body.created).toBe(true);
    expect(Object.keys(created.body)).toEqual(['requestId', 'data', 'created']);
    expect(keyPaths(created.body.data)).toEqual(keyPaths(BRANDTRACKER_CHANGE));
    expect(created.body.data).toMatchObject({ id: BT_A, name: 'Nordic Glow', facebookPageId: PAGE_A, targetType: 'page', websiteId: null, totalTraffic: 42000 });
    const linkId = created.body.data.workspaceLinkId;

    const repeat = await api.post('/brandtrackers', { facebookPageId: PAGE_A });
    expect(repeat.body).toMatchObject({ created: false, data: { id: BT_A, workspaceLinkId: linkId } });
    expect(await operations(workspaceId)).toBe(1); // an already active link uses no quota

    const renamed = await api.patch(`/brandtrackers/${BT_A}`, { name: 'Our rival' });
    expect(renamed.status).toBe(200);
    expect(renamed.body.data).toMatchObject({ id: BT_A, name: 'Our rival', workspaceLinkId: linkId });
    expect((await t.db.prisma.brandtracker.findUniqueOrThrow({ where: { id: BT_A } })).name).toBe('Nordic Glow'); // global name unchanged

    const deleted = await api.del(`/brandtrackers/${BT_A}`);
    expect(deleted.body).toEqual({ requestId: deleted.body.requestId, data: { id: BT_A, deleted: true } });
    expect((await api.get(`/brandtrackers/${BT_A}`)).status).toBe(404);
    expect((await api.get('/brandtrackers')).body.data).toEqual([]);
    expect((await api.del(`/brandtrackers/${BT_A}`)).status).toBe(404); // inactive is not found
    expect(await links(workspaceId)).toMatchObject([{ id: linkId, isActive: false, name: 'Our rival' }]);

    const again = await api.post('/brandtrackers', { facebookPageId: PAGE_A });
    expect(again.body).toMatchObject({ created: true, data: { id: BT_A, workspaceLinkId: linkId, name: 'Our rival' } });
    expect(await links(workspaceId)).toHaveLength(1);
    expect(await operations(workspaceId)).toBe(2);

    const events = await audits(workspaceId);
    expect(events.map((e) => e.action)).toEqual(['brandtracker.create', 'brandtracker.rename', 'brandtracker.delete', 'brandtracker.reactivate']);
    expect(events[0]).toMatchObject({ entityType: 'brandtracker_link', entityId: String(linkId), credentialId, before: null, requestId: created.body.requestId });
    expect(events[1]).toMatchObject({ before: { name: null }, after: { name: 'Our rival' } });
    expect(events[2]).toMatchObject({ before: { isActive: true }, after: { isActive: false } });
    expect(events[3]).toMatchObject({ before: { isActive: false }, after: { isActive: true } });
  });

  it('creates the global brandtracker of a page or a website nobody tracked yet, by page, website, shop id or domain', async () => {
    const api = as((await t.newKey()).apiKey);
    const page = await api.post('/brandtrackers', { facebookPageId: PAGE_C });
    expect(page.body).toMatchObject({ created: true, data: { name: 'Gamma Goods', facebookPageId: PAGE_C, targetType: 'page' } });
    const global = await t.db.prisma.brandtracker.findUniqueOrThrow({ where: { facebookPageId: PAGE_C }, include: { websites: true } });
    expect(global.id).toBe(page.body.data.id);
    expect(global.websites).toHaveLength(1);

    const byDomain = await api.post('/brandtrackers', { domain: `https://www.${GAMMA_DOMAIN}/collections/all` });
    expect(byDomain.body).toMatchObject({ created: true, data: { targetType: 'shop', domain: GAMMA_DOMAIN, facebookPageId: null } });
    const shopId = byDomain.body.data.websiteId;
    for (const body of [{ websiteId: shopId }, { shopId }]) {
      expect((await api.post('/brandtrackers', body)).body).toMatchObject({ created: false, data: { id: byDomain.body.data.id } });
    }
    // The page is already tracked by its own brandtracker, so the website's has none (a page has one brandtracker).
    expect(await t.db.prisma.brandtracker.count({ where: { facebookPageId: PAGE_C } })).toBe(1);
  });

  it('tracks on GraphQL as on REST', async () => {
    const { apiKey, workspaceId } = await t.newKey();
    const create = `mutation { brandtrackerCreate(facebookPageId: "${PAGE_B}") { created data { id name workspaceLinkId targetType advertising { newAdsLastDay } } } }`;
    const first = await t.graphql(create, {}, apiKey);
    const [link] = await links(workspaceId);
    expect(first.body.data.brandtrackerCreate).toEqual({ created: true, data: { id: BT_B, name: 'Peak Fitness Store', workspaceLinkId: link.id, targetType: 'page', advertising: { newAdsLastDay: 1 } } });
    expect((await t.graphql(create, {}, apiKey)).body.data.brandtrackerCreate.created).toBe(false);
    const rest = await as(apiKey).get(`/brandtrackers/${BT_B}`);
    expect(rest.body.data).toMatchObject({ id: BT_B, name: 'Peak Fitness Store' });
    const bad = await t.graphql('mutation { brandtrackerCreate { created } }', {}, apiKey);
    expect(bad.body.errors[0].extensions.code).toBe('validation_error');
  });

  it('needs exactly one known target: none or two is a 400, an unknown one a 404, nothing created', async () => {
    const { apiKey, workspaceId } = await t.newKey();
    const api = as(apiKey);
    const globals = await t.db.prisma.brandtracker.count();
    const none = await api.post('/brandtrackers', {});
    expect(none.status).toBe(400);
    expect(none.body.error.code).toBe('validation_error');
    const two = await api.post('/brandtrackers', { facebookPageId: PAGE_A, domain: 'nordicglow.com' });
    expect(two.status).toBe(400);
    expect(two.body.error.details.validationErrors[0]).toMatchObject({ field: 'body.domain', location: 'body' });
    expect((await api.post('/brandtrackers', { websiteId: 'not-a-uuid' })).body.error.details.validationErrors[0].field).toBe('body.websiteId');
    expect((await api.post('/brandtrackers', { facebookPageId: '999' })).status).toBe(404);
    expect((await api.post('/brandtrackers', { domain: 'unknown-shop.example' })).status).toBe(404);
    expect((await api.post('/brandtrackers', { websiteId: '00000000-0000-4000-8000-000000000000' })).status).toBe(404);
    expect((await api.post('/brandtrackers', { facebookPageId: PAGE_A, folderId: 424242 })).status).toBe(404);
    expect(await t.db.prisma.brandtracker.count()).toBe(globals);
    expect(await links(workspaceId)).toEqual([]);
  });
});

describe('the list and the detail', () => {
  let api: ReturnType<typeof as>;
  beforeAll(async () => {
    api = as((await t.newKey()).apiKey);
    await api.post('/brandtrackers', { facebookPageId: PAGE_A });
    await api.post('/brandtrackers', { facebookPageId: PAGE_B });
  });

  it('pages the active brandtrackers, last added first, in the specification shape', async () => {
    const res = await api.get('/brandtrackers?limit=1');
    expect(res.status).toBe(200);
    expect(res.body.pagination).toEqual({ page: 1, limit: 1, total: 2, totalPages: 2 });
    expect(res.body.data.map((b: { id: string }) => b.id)).toEqual([BT_B]);
    const all = await api.get('/brandtrackers');
    expect(all.body.data.map((b: { id: string }) => b.id)).toEqual([BT_B, BT_A]);
    expect(keyPaths(all.body.data[1])).toEqual(keyPaths(BRANDTRACKER));
    expect(all.body.data[1]).toMatchObject({
      advertising: { activeAds: 2, newAdsLastDay: 0, newAdsLast7Days: 0 },
      websites: [{ domain: 'nordicglow.com', trafficNumber: 42000, trafficChange: 0.18, monthlyTraffic: { '2026-09': 39000, '2026-10': 42000 }, socialNetworks: { facebook: 'https://www.facebook.com/nordicglow', youtube: null } }],
    });
    expect(all.body.data[0].advertising).toMatchObject({ newAdsLastDay: 1, newAdsLast7Days: 1 });
  });

  it('sorts and filters', async () => {
    const ids = async (query: string) => (await api.get(`/brandtrackers?${query}`)).body.data.map((b: { id: string }) => b.id);
    expect(await ids('sortBy=name')).toEqual([BT_A, BT_B]);
    expect(await ids('sortBy=totalTraffic')).toEqual([BT_A, BT_B]);
    expect(await ids('sortBy=activeAds')).toEqual([BT_A, BT_B]);
    expect(await ids('sortBy=newAdsLastDay')).toEqual([BT_B, BT_A]);
    expect(await ids('sortBy=createdAt')).toEqual([BT_B, BT_A]);
    expect(await ids('name=GLOW')).toEqual([BT_A]);
    expect(await ids('name=%25')).toEqual([]); // a literal %, not a wildcard
    expect(await ids(`hasNewAdsSince=${encodeURIComponent(new Date(Date.now() - 86_400_000).toISOString())}`)).toEqual([BT_B]);
    const bad = await api.get('/brandtrackers?sortBy=reach&hasNewAdsSince=yesterday');
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.validationErrors.map((v: { field: string }) => v.field).sort()).toEqual(['query-string.hasNewAdsSince', 'query-string.sortBy']);
    const big = await api.get('/brandtrackers?limit=101');
    expect(big.body.error.details.validationErrors).toEqual([{ field: 'query-string.limit', location: 'query-string', expected: ['limit must not be greater than 100'] }]);
  });

  it('answers the detail with the page profile and the statistics of its ads', async () => {
    const res = await api.get(`/brandtrackers/${BT_A}`);
    expect(res.status).toBe(200);
    expect(keyPaths(res.body.data)).toEqual(keyPaths(BRANDTRACKER_DETAIL));
    expect(res.body.data).toMatchObject({
      createdAt: '2025-06-01T00:00:00.000Z',
      pageProfile: { facebookLikes: 12000, instagramFollowers: 8000, profileUri: `https://www.facebook.com/${PAGE_A}`, runningAds: 2 },
      statistics: {
        urlCount: { 'https://nordicglow.com/products/serum': 1 },
        ctaCount: { 'Shop now': 2 },
        liveAdCount: { activeCount: 2, inactiveCount: 1 },
        formatCount: { video: 2 },
        euData: { adsCount: 2, activeAdsCount: 2, reach: 8000 },
      },
    });
    expect((await api.get('/brandtrackers/not-a-uuid')).body.error.details.validationErrors[0].field).toBe('path.brandtrackerId');
  });

  it('answers the same on GraphQL', async () => {
    const { apiKey } = await t.newKey();
    await as(apiKey).post('/brandtrackers', { facebookPageId: PAGE_A });
    const rest = await as(apiKey).get('/brandtrackers');
    const gql = await t.graphql(
      `{ brandtrackers(limit: 5) { data { id name facebookPageId workspaceAddedAt advertising { activeAds newAdsLastDay } totalTraffic websites { domain monthlyTraffic } } pagination { total } } }`,
      {}, apiKey,
    );
    const [row] = rest.body.data;
    expect(gql.body.data.brandtrackers).toEqual({
      data: [{ id: row.id, name: row.name, facebookPageId: row.facebookPageId, workspaceAddedAt: row.workspaceAddedAt, advertising: { activeAds: 2, newAdsLastDay: 0 }, totalTraffic: 42000, websites: [{ domain: 'nordicglow.com', monthlyTraffic: row.websites[0].monthlyTraffic }] }],
      pagination: { total: 1 },
    });
  });
});

describe('quotas', () => {
  it('refuses a create over the active slots or the monthly operations with 409, nothing changed', async () => {
    const { apiKey, workspaceId } = await t.newKey();
    const api = as(apiKey);
    await t.db.prisma.brandtrackerQuota.create({ data: { workspaceId, activeLimit: 1, operationsLimit: 3 } });
    expect((await api.post('/brandtrackers', { facebookPageId: PAGE_A })).status).toBe(200);
    const full = await api.post('/brandtrackers', { facebookPageId: PAGE_B });
    expect(full.status).toBe(409);
    expect(full.body.error).toMatchObject({ code: 'conflict', details: { quota: 'activeBrandtrackers', limit: 1, used: 1 } });
    expect(await links(workspaceId)).toHaveLength(1);

    expect((await api.del(`/brandtrackers/${BT_A}`)).status).toBe(200); // a single delete uses no operation
    expect((await api.post('/brandtrackers', { facebookPageId: PAGE_B })).status).toBe(200);
    await api.del(`/brandtrackers/${BT_B}`);
    expect((await api.post('/brandtrackers', { facebookPageId: PAGE_A })).status).toBe(200); // the third operation
    await api.del(`/brandtrackers/${BT_A}`);
    const spent = await api.post('/brandtrackers', { facebookPageId: PAGE_B });
    expect(spent.status).toBe(409);
    expect(spent.body.error.details).toMatchObject({ quota: 'createDeleteOperations', limit: 3, used: 3 });
    expect((await links(workspaceId)).filter((link) => link.isActive)).toEqual([]);

    // A page nobody tracked yet: the refused create leaves no global brandtracker behind either.
    await t.db.prisma.advertiser.create({ data: { id: '1000000000000009', name: 'Delta Daily' } });
    expect((await api.post('/brandtrackers', { facebookPageId: '1000000000000009' })).status).toBe(409);
    expect(await t.db.prisma.brandtracker.count({ where: { facebookPageId: '1000000000000009' } })).toBe(0);

    const usage = await api.get('/usage');
    expect(usage.body.brandtrackers).toMatchObject({ activeBrandtrackers: { limit: 1, used: 0, remaining: 1 }, createDeleteOperations: { limit: 3, used: 3, remaining: 0 } });
  });
});

describe('roles and isolation', () => {
  it('refuses every write of a read-only key with 403, nothing changed', async () => {
    const { apiKey, workspaceId, slug } = await t.newKey();
    await as(apiKey).post('/brandtrackers', { facebookPageId: PAGE_A });
    const folder = await as(apiKey).post('/brandtrackers/folders', { name: 'Mine' });
    const { userId } = await createUser(t.db.prisma, { workspace: slug, name: 'Reader', role: 'readonly' });
    const reader = as((await createKey(t.db.prisma, { workspace: slug, access: 'delegated_user', user: userId })).apiKey);
    const before = { links: await links(workspaceId), audits: (await audits(workspaceId)).length };
    const attempts = [
      reader.post('/brandtrackers', { facebookPageId: PAGE_B }),
      reader.patch(`/brandtrackers/${BT_A}`, { name: 'x' }),
      reader.del(`/brandtrackers/${BT_A}`),
      reader.post('/brandtrackers/folders', { name: 'x' }),
      reader.patch(`/brandtrackers/folders/${folder.body.data.id}`, { name: 'x' }),
      reader.del(`/brandtrackers/folders/${folder.body.data.id}`, { action: 'delete-brandtrackers', confirm: true }),
      reader.patch('/brandtrackers/workspace-links', { brandtrackerIds: [BT_A], folderId: folder.body.data.id }),
      reader.del('/brandtrackers/workspace-links', { brandtrackerIds: [BT_A], confirm: true }),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('forbidden');
    }
    expect((await reader.get('/brandtrackers')).body.data).toHaveLength(1); // reads are allowed
    expect(await links(workspaceId)).toEqual(before.links);
    expect((await audits(workspaceId)).length).toBe(before.audits);
    const gql = await t.graphql(`mutation { brandtrackerDelete(brandtrackerId: "${BT_A}") { deleted } }`, {}, (await createKey(t.db.prisma, { workspace: slug, access: 'delegated_user', user: userId })).apiKey);
    expect(gql.body.errors[0].extensions.code).toBe('forbidden');
  });

  it("answers another workspace's brandtracker exactly like a missing one, before any change", async () => {
    const owner = await t.newKey();
    await as(owner.apiKey).post('/brandtrackers', { facebookPageId: PAGE_B });
    const other = as((await t.newKey()).apiKey);
    const missing = '00000000-0000-4000-8000-0000000000ff';
    for (const [method, suffix, body] of [['GET', '', undefined], ['PATCH', '', { name: 'x' }], ['DELETE', '', undefined], ['GET', '/snapshots', undefined]] as const) {
      const theirs = await t.rest(method, `/brandtrackers/${BT_B}${suffix}`, { key: (await t.newKey()).apiKey, body });
      const none = await t.rest(method, `/brandtrackers/${missing}${suffix}`, { key: (await t.newKey()).apiKey, body });
      expect([theirs.status, theirs.body.error.code]).toEqual([404, 'not_found']);
      expect(theirs.body.error.message.replace(BT_B, 'ID')).toBe(none.body.error.message.replace(missing, 'ID'));
    }
    expect((await other.get('/brandtrackers')).body.data).toEqual([]);
    expect(await links(owner.workspaceId)).toMatchObject([{ isActive: true, name: null }]);
  });
});

describe('Idempotency-Key on the writes', () => {
  it('replays a create without acting again; the same key with another body is a 400', async () => {
    const { apiKey, workspaceId } = await t.newKey();
    const api = as(apiKey);
    const first = await api.post('/brandtrackers', { facebookPageId: PAGE_A }, { 'idempotency-key': 'track-a' });
    await api.del(`/brandtrackers/${BT_A}`);
    const replay = await api.post('/brandtrackers', { facebookPageId: PAGE_A }, { 'idempotency-key': 'track-a' });
    expect(replay.body).toEqual({ ...first.body, requestId: replay.headers.get('x-request-id') });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(await links(workspaceId)).toMatchObject([{ isActive: false }]); // the replay did not reactivate it
    expect(await operations(workspaceId)).toBe(1);
    const other = await api.post('/brandtrackers', { facebookPageId: PAGE_B }, { 'idempotency-key': 'track-a' });
    expect(other.status).toBe(400);
    expect(other.body.error.details.validationErrors[0].field).toBe('header.Idempotency-Key');
  });

  it('replays a bulk delete with its body', async () => {
    const { apiKey, workspaceId } = await t.newKey();
    const api = as(apiKey);
    await api.post('/brandtrackers', { facebookPageId: PAGE_A });
    const send = () => t.rest('DELETE', '/brandtrackers/workspace-links', { key: apiKey, body: { brandtrackerIds: [BT_A], confirm: true }, headers: { 'idempotency-key': 'bulk-1' } });
    const first = await send();
    expect(first.body.data).toMatchObject({ requestedCount: 1, affectedCount: 1 });
    await api.post('/brandtrackers', { facebookPageId: PAGE_A });
    const replay = await send();
    expect(replay.body).toEqual({ ...first.body, requestId: replay.headers.get('x-request-id') });
    expect((await links(workspaceId))[0].isActive).toBe(true);
    expect(await operations(workspaceId)).toBe(3); // create, bulk delete, reactivate: the replay took none
  });
});
