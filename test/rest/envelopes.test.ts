import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes, type RestRoute } from '../../rest/routes.js';
import { setCredits } from '../../src/auth/admin.js';
import { createTestApp, type HttpResult, type TestApp } from '../support/app.js';
import { adsScenario } from '../ads/scenario.js';
import {
  AD_DETAIL_GROUPED, AD_DETAIL_RESOLVED, AD_SUMMARY, AD_SUMMARY_GROUPED, ERROR, GOOGLE_AD, GOOGLE_CATEGORY_FACET, GOOGLE_FACET_VALUE, keyPaths,
  keysOf, ME, OFFSET_PAGINATION, PAGE_PAGINATION, TIKTOK_ITEM, TIKTOK_ITEM_DETAIL, USAGE, VALIDATION_ERROR, WORKSPACE,
} from '../support/shapes.js';
import { googleAdsScenario } from '../google-ads/scenario.js';
import { P_GLOW, SHOP_GLOW, T1, tiktokScenario } from '../tiktok/scenario.js';
import { savingCases, setupSavingCases } from '../boards/envelope-cases.js';

// The specification's envelopes on every route of rest/routes.ts: status, X-Request-Id, exact key sets.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const CLIENT_ID = 'abcdefgh-1234';

let t: TestApp;
let key: string;
let ws: { credentialId: string; workspaceId: string; slug: string };

beforeAll(async () => {
  t = await createTestApp(async (db) => {
    await adsScenario(db);
    await tiktokScenario(db);
    await googleAdsScenario(db);
  });
  const created = await t.newKey();
  key = created.apiKey;
  ws = created;
  // Distinct figures, so every credit field is checked against a value of its own.
  await setCredits(t.db.prisma, { workspace: created.slug, recurringLimit: 500, recurringUsed: 120, topup: 30 });
  await setupSavingCases(t, key);
});
afterAll(() => t?.close());

const todayUtc = () => {
  const now = new Date();
  return Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
};

/** One representative successful call per route, with the exact shape and values its body must have. */
type Case = { path: string; body?: unknown; open?: boolean; check: (res: HttpResult) => void };

const cases: Record<string, Case> = {
  'GET /': {
    path: '',
    open: true,
    check: ({ body }) => expect(body).toEqual({ requestId: body.requestId, name: 'Market Intelligence API', version: 'v1', status: 'ok' }),
  },
  'GET /health': {
    path: '/health',
    open: true,
    check: ({ body }) => {
      expect(keysOf(body)).toEqual(['requestId', 'status', 'timestamp', 'uptime']);
      expect(body.status).toBe('ok');
      expect(body.timestamp).toMatch(ISO);
      expect(Math.abs(Date.parse(body.timestamp) - Date.now())).toBeLessThan(60_000);
      expect(typeof body.uptime).toBe('number');
      expect(body.uptime).toBeGreaterThanOrEqual(0);
    },
  },
  'GET /system/freshness': {
    path: '/system/freshness',
    open: true,
    check: ({ body }) => {
      expect(keyPaths(body)).toEqual(
        keyPaths({ requestId: 1, status: 1, data: { latestReadyDate: 1, latestScheduledDate: 1, dataFreshnessLagDays: 1, generatedAt: 1 } }),
      );
      expect(body.status).toBe('ok');
      expect(body.data.latestReadyDate).toBe('2026-11-21');
      expect(body.data.latestScheduledDate).toBe('2026-11-21');
      expect(body.data.dataFreshnessLagDays).toBe(Math.round((todayUtc() - Date.UTC(2026, 10, 21)) / 86_400_000));
      expect(body.data.generatedAt).toMatch(ISO);
      expect(Math.abs(Date.parse(body.data.generatedAt) - Date.now())).toBeLessThan(60_000);
    },
  },
  'GET /me': {
    path: '/me',
    check: ({ body }) => {
      expect(keyPaths(body)).toEqual(keyPaths({ ...ME, delegatedUser: null }));
      expect(body.delegatedUser).toBeNull();
      expect(body.credential).toMatchObject({ id: ws.credentialId, name: 'Test key', description: null, accessLevel: 'full_access', expiresAt: null });
      expect(body.credential.createdAt).toMatch(ISO);
      expect(body.credential.lastUsedAt).toMatch(ISO);
      expect(body.workspace).toMatchObject({ id: ws.workspaceId, slug: ws.slug, name: `Workspace ${ws.slug}` });
      expect(body.workspace.createdAt).toMatch(ISO);
    },
  },
  'GET /workspace': {
    path: '/workspace',
    check: ({ body }) => {
      expect(keyPaths(body)).toEqual(keyPaths(WORKSPACE));
      expect(body.workspace).toMatchObject({ id: ws.workspaceId, slug: ws.slug, name: `Workspace ${ws.slug}` });
      expect(body.authenticatedAs).toEqual({ accessLevel: 'full_access', delegatedUserId: null, delegatedUserRole: null });
      expect(body.credential).toMatchObject({ id: ws.credentialId, name: 'Test key', description: null, expiresAt: null });
    },
  },
  'GET /usage': {
    path: '/usage',
    check: ({ body, headers }) => {
      expect(keyPaths(body)).toEqual(keyPaths(USAGE));
      expect(body.workspace).toEqual({ id: ws.workspaceId, slug: ws.slug, name: `Workspace ${ws.slug}` });
      expect(body.credential).toMatchObject({ id: ws.credentialId, accessLevel: 'full_access' });
      expect(body.billing).toEqual({ configured: false, planCode: null, currentPeriodStart: null, currentPeriodEnd: null, updatedAt: null });
      expect(body.includedQuota).toEqual({ limit: 500, used: 120, remaining: 380 });
      expect(body.credits).toEqual({ balance: 30, recurring: { limit: 500, used: 120, remaining: 380 }, topup: { balance: 30 }, totalRemaining: 410 });
      expect(headers.get('x-usage-cost')).toBe('0');
      expect(headers.get('x-credits-used')).toBe('0');
      expect(headers.get('x-credits-remaining')).toBe(String(body.credits.totalRemaining));
    },
  },
  'GET /ads': {
    path: '/ads?search=summer&sortBy=reach',
    check: ({ body }) => {
      expect(keysOf(body)).toEqual(['data', 'pagination', 'requestId']);
      expect(body.pagination).toEqual({ page: 1, limit: 25, total: 2, totalPages: 1 });
      expect(keyPaths(body.pagination)).toEqual(keyPaths(PAGE_PAGINATION));
      expect(body.data.map((ad: { id: string }) => ad.id)).toEqual(['facebook_9004', 'facebook_9001']);
      expect(keyPaths(body.data[0])).toEqual(keyPaths(AD_SUMMARY)); // single ad: no collationId key
      expect(keyPaths(body.data[1])).toEqual(keyPaths(AD_SUMMARY_GROUPED));
      expect(body.data[1].collationId).toBe('col_a');
    },
  },
  'POST /ads/query': {
    path: '/ads/query',
    body: {},
    check: ({ body }) => {
      expect(keysOf(body)).toEqual(['data', 'pagination', 'requestId']);
      expect(body.pagination).toEqual({ page: 1, limit: 25, total: 3, totalPages: 1 });
      const byId = Object.fromEntries(body.data.map((ad: { id: string }) => [ad.id, ad]));
      expect(Object.keys(byId).sort()).toEqual(['facebook_9001', 'facebook_9003', 'facebook_9004']);
      expect(keyPaths(byId.facebook_9001)).toEqual(keyPaths(AD_SUMMARY_GROUPED));
      expect(keyPaths(byId.facebook_9003)).toEqual(keyPaths(AD_SUMMARY));
      expect(keyPaths(byId.facebook_9004)).toEqual(keyPaths(AD_SUMMARY));
    },
  },
  'GET /ads/:adId': {
    path: '/ads/facebook_9002',
    check: ({ body }) => {
      expect(keysOf(body)).toEqual(['data', 'requestId']);
      expect(keyPaths(body.data)).toEqual(keyPaths(AD_DETAIL_RESOLVED));
      expect(body.data.id).toBe('facebook_9001');
      expect(body.data.resolvedFrom).toEqual({ requestedId: 'facebook_9002', reason: 'duplicate_group' });
    },
  },
  'GET /ads/:adId/reach-history': {
    path: '/ads/facebook_9001/reach-history?limit=2',
    check: ({ body }) => {
      expect(keysOf(body)).toEqual(['data', 'requestId']);
      expect(body.data).toEqual([{ date: '2026-11-20', reach: 4900 }, { date: '2026-11-21', reach: 5000 }]);
    },
  },
  'GET /ads/:adId/media-url': {
    path: '/ads/facebook_9001/media-url',
    check: ({ body }) => {
      expect(keysOf(body)).toEqual(['data', 'requestId']);
      expect(keysOf(body.data)).toEqual(keysOf({ adId: 1, mediaType: 1, url: 1, urlType: 1, selectedSource: 1, mediaUrl: 1, thumbnailUrl: 1, filename: 1 }));
      expect(body.data.adId).toBe('facebook_9001');
    },
  },
  'GET /ads/facets/landing-pages': {
    path: '/ads/facets/landing-pages?scopeTrackedPages=1000000000000001',
    check: ({ body, headers }) => {
      expect(keysOf(body)).toEqual(['data', 'meta', 'requestId']);
      expect(body.data).toEqual([{ url: 'https://nordicglow.com/products/serum', usageCount: 1, activeAdsCount: 1 }]);
      expect(body.meta).toEqual({ scopeType: 'trackedPages', scopeValueCount: 1, status: 'all', limit: 25, isTruncated: false });
      // Metered: one credit per landing page returned.
      expect(headers.get('x-usage-cost')).toBe('1');
      expect(headers.get('x-credits-used')).toBe('1');
      expect(Number(headers.get('x-credits-remaining'))).toBeGreaterThan(0);
      expect(headers.get('x-credits-source')).toBe('recurring');
    },
  },
  'POST /ads/:adId/share': {
    path: '/ads/facebook_9001/share',
    check: ({ body }) => {
      expect(keysOf(body)).toEqual(['data', 'requestId']);
      expect(keysOf(body.data)).toEqual(keysOf({ adId: 1, id: 1, slug: 1, shareUrl: 1, sharePath: 1, createdAt: 1 }));
      expect(body.data.adId).toBe('facebook_9001');
      expect(body.data.id).toMatch(UUID);
    },
  },
  'GET /tiktok/library': {
    path: `/tiktok/library?limit=1&tiktokPageId=${P_GLOW}`,
    check: ({ body }) => {
      expect(keysOf(body)).toEqual(['data', 'pagination', 'requestId']);
      expect(body.pagination).toEqual({ page: 1, limit: 1, total: 2, totalPages: 2 });
      expect(body.data).toHaveLength(1);
      for (const item of body.data) {
        expect(keyPaths(item)).toEqual(keyPaths(TIKTOK_ITEM));
        expect(Object.keys(item)).toEqual(Object.keys(TIKTOK_ITEM)); // the specification's key order
      }
    },
  },
  'POST /tiktok/library/query': {
    path: '/tiktok/library/query',
    body: { tiktokPageIds: [P_GLOW], sortBy: 'views' },
    check: ({ body }) => {
      expect(keysOf(body)).toEqual(['data', 'pagination', 'requestId']);
      expect(body.pagination).toEqual({ page: 1, limit: 25, total: 2, totalPages: 1 });
      expect(body.data).toHaveLength(2);
      for (const item of body.data) expect(keyPaths(item)).toEqual(keyPaths(TIKTOK_ITEM));
    },
  },
  'GET /tiktok/library/:itemId': {
    path: `/tiktok/library/tiktok_${T1}`,
    check: ({ body }) => {
      expect(keysOf(body)).toEqual(['data', 'requestId']);
      expect(keyPaths(body.data)).toEqual(keyPaths(TIKTOK_ITEM_DETAIL));
      expect(Object.keys(body.data)).toEqual(Object.keys(TIKTOK_ITEM_DETAIL));
      expect(body.data.id).toBe(`tiktok_${T1}`);
    },
  },
  'GET /shops/:shopId/tiktok/library': {
    path: `/shops/${SHOP_GLOW}/tiktok/library`,
    check: ({ body }) => {
      expect(keysOf(body)).toEqual(['data', 'pagination', 'requestId']);
      expect(body.pagination).toEqual({ page: 1, limit: 25, total: 2, totalPages: 1 });
      expect(body.data).toHaveLength(2);
      for (const item of body.data) expect(keyPaths(item)).toEqual(keyPaths(TIKTOK_ITEM));
    },
  },
  'POST /google-ads/query': {
    path: '/google-ads/query',
    body: { status: 'active' },
    check: ({ body }) => {
      expect(keysOf(body)).toEqual(['data', 'pagination', 'requestId']);
      expect(body.pagination).toEqual({ page: 1, limit: 25, total: 3, totalPages: 1 });
      expect(body.data).toHaveLength(3);
      for (const ad of body.data) {
        expect(keyPaths(ad)).toEqual(keyPaths(GOOGLE_AD));
        expect(Object.keys(ad)).toEqual(Object.keys(GOOGLE_AD));
      }
    },
  },
  'GET /google-ads/facets/networks': {
    path: '/google-ads/facets/networks',
    check: ({ body }) => {
      expect(keysOf(body)).toEqual(['data', 'requestId']);
      expect(body.data).toHaveLength(5);
      expect(keyPaths(body.data)).toEqual(keyPaths([GOOGLE_FACET_VALUE]));
    },
  },
  'GET /google-ads/facets/countries': {
    path: '/google-ads/facets/countries?limit=2',
    check: ({ body }) => {
      expect(keysOf(body)).toEqual(['data', 'pagination', 'requestId']);
      expect(body.data).toHaveLength(2);
      expect(keyPaths(body.data)).toEqual(keyPaths([GOOGLE_FACET_VALUE]));
      expect(keyPaths(body.pagination)).toEqual(keyPaths(OFFSET_PAGINATION));
      expect(body.pagination).toEqual({ limit: 2, offset: 0, total: 4 });
    },
  },
  'GET /google-ads/facets/categories': {
    path: '/google-ads/facets/categories?offset=1',
    check: ({ body }) => {
      expect(keysOf(body)).toEqual(['data', 'pagination', 'requestId']);
      expect(body.data).toHaveLength(3);
      expect(keyPaths(body.data)).toEqual(keyPaths([GOOGLE_CATEGORY_FACET]));
      expect(body.pagination).toEqual({ limit: 100, offset: 1, total: 4 });
    },
  },
  ...savingCases(),
};

const routeKey = (route: RestRoute) => `${route.method} ${route.path}`;

describe('every route of rest/routes.ts', () => {
  it('has a case here (a new route needs its envelope test)', () => {
    expect(Object.keys(cases).sort()).toEqual(routes.map(routeKey).sort());
  });

  it.each(routes.map((route) => [routeKey(route), route] as const))('%s: status, X-Request-Id, envelope', async (name, route) => {
    const c = cases[name];
    const res = await t.rest(route.method, c.path, { key, body: c.body });
    expect(res.status, JSON.stringify(res.body)).toBe(route.status ?? 200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const id = res.headers.get('x-request-id');
    expect(id).toMatch(UUID);
    expect(res.body.requestId).toBe(id);
    expect(Object.keys(res.body)[0]).toBe('requestId');
    c.check(res);

    // A well-formed client id is echoed in the header and the body.
    const echoed = await t.rest(route.method, c.path, { key, body: c.body, headers: { 'X-Request-Id': CLIENT_ID } });
    expect(echoed.status).toBe(route.status ?? 200);
    expect(echoed.headers.get('x-request-id')).toBe(CLIENT_ID);
    expect(echoed.body.requestId).toBe(CLIENT_ID);

    // Error bodies carry it too: a protected route without a key.
    if (!c.open) {
      const denied = await t.rest(route.method, c.path, { body: c.body, headers: { 'X-Request-Id': CLIENT_ID } });
      expect(denied.status).toBe(401);
      expect(denied.body).toEqual({ error: { code: 'missing_api_key', message: expect.any(String), requestId: CLIENT_ID } });
      expect(denied.headers.get('x-request-id')).toBe(CLIENT_ID);
      const anonymous = await t.rest(route.method, c.path, { body: c.body });
      expect(anonymous.body.error.requestId).toBe(anonymous.headers.get('x-request-id'));
      expect(anonymous.body.error.requestId).toMatch(UUID);
    }
  });
});

describe('request ids', () => {
  it('a malformed client X-Request-Id is replaced by a fresh uuid', async () => {
    for (const given of ['short', 'has spaces in it', 'x'.repeat(129), 'semi;colon-123']) {
      const res = await t.rest('GET', '/health', { headers: { 'X-Request-Id': given } });
      expect(res.headers.get('x-request-id')).toMatch(UUID);
      expect(res.body.requestId).toBe(res.headers.get('x-request-id'));
    }
  });

  it('every request gets its own id', async () => {
    const [a, b] = await Promise.all([t.rest('GET', '/health'), t.rest('GET', '/health')]);
    expect(a.body.requestId).not.toBe(b.body.requestId);
  });
});

describe('ad detail envelope', () => {
  it('the group lead has collationId and no resolvedFrom key', async () => {
    const { status, body } = await t.rest('GET', '/ads/facebook_9001', { key });
    expect(status).toBe(200);
    expect(keyPaths(body.data)).toEqual(keyPaths(AD_DETAIL_GROUPED));
    expect('resolvedFrom' in body.data).toBe(false);
    expect(body.data.collationId).toBe('col_a');
  });

  it('a single (ungrouped) ad has neither collationId nor resolvedFrom', async () => {
    const { status, body } = await t.rest('GET', '/ads/facebook_9003', { key });
    expect(status).toBe(200);
    expect(keysOf(body.data)).toEqual(keysOf(AD_DETAIL_GROUPED).filter((k) => k !== 'collationId'));
    expect(body.data.transcript).toBeNull();
    expect(body.data.creativeAnalysis).toEqual({ hook: null });
  });
});

describe('error envelopes', () => {
  it('an unknown /v1 path is a 404 not_found envelope', async () => {
    for (const [method, path] of [['GET', '/nope'], ['GET', '/ads/facebook_9001/nope'], ['PUT', '/ads'], ['POST', '/ads/facebook_9001'], ['DELETE', '/me']]) {
      const res = await t.rest(method, path, { key });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(keyPaths(res.body)).toEqual(keyPaths(ERROR));
      expect(res.body.error.code).toBe('not_found');
      expect(res.body.error.requestId).toBe(res.headers.get('x-request-id'));
    }
  });

  it('an unknown ad is a 404 not_found envelope', async () => {
    const res = await t.rest('GET', '/ads/facebook_424242', { key, headers: { 'X-Request-Id': CLIENT_ID } });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: { code: 'not_found', message: expect.stringContaining('facebook_424242'), requestId: CLIENT_ID } });
  });

  it('a validation failure has details.validationErrors and the request id', async () => {
    const res = await t.rest('GET', '/ads?search=summer&limit=101', { key });
    expect(res.status).toBe(400);
    expect(keyPaths(res.body)).toEqual(keyPaths(VALIDATION_ERROR));
    expect(res.body.error.requestId).toBe(res.headers.get('x-request-id'));
  });

  it('a malformed JSON body on POST /ads/query is a 400 validation_error, never a 500', async () => {
    for (const rawBody of ['{"limit": 1', 'not json', '{limit: 1}', '[{"limit": 1}]', '[]', 'null', '"text"', '42']) {
      const res = await t.rest('POST', '/ads/query', { key, rawBody });
      expect(res.status, rawBody).toBe(400);
      expect(res.body.error.code).toBe('validation_error');
      expect(res.body.error.requestId).toBe(res.headers.get('x-request-id'));
      expect(res.body.error.details.validationErrors[0]).toMatchObject({ field: 'body', location: 'body' });
    }
  });

  it('an empty body on POST /ads/query counts as {}', async () => {
    const empty = await t.rest('POST', '/ads/query', { key, rawBody: '' });
    const object = await t.rest('POST', '/ads/query', { key, body: {} });
    expect(empty.status).toBe(200);
    expect(empty.body.data).toEqual(object.body.data);
  });

  it('a malformed body on POST share is a 400 too', async () => {
    const res = await t.rest('POST', '/ads/facebook_9001/share', { key, rawBody: '{oops' });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('validation_error');
  });
});
