import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes, type RestRoute } from '../../rest/routes.js';
import { setCredits } from '../../src/auth/admin.js';
import { createTestApp, type HttpResult, type TestApp } from '../support/app.js';
import { adsScenario } from '../ads/scenario.js';
import {
  AD_DETAIL_GROUPED, AD_DETAIL_RESOLVED, AD_SUMMARY, AD_SUMMARY_GROUPED, ADVERTISER_DETAIL, ADVERTISER_SUMMARY, ERROR, FACEBOOK_SHOP_ENTRY,
  FACET_ITEMS, FACET_META, GOOGLE_AD, GOOGLE_CATEGORY_FACET, GOOGLE_FACET_VALUE, keyPaths, keysOf, LOOKUP_META, LOOKUP_RESULT, ME,
  OFFSET_PAGINATION, PAGE_PAGINATION, TIKTOK_ITEM, TIKTOK_ITEM_DETAIL, USAGE, VALIDATION_ERROR, WORKSPACE,
  CURSOR_PAGINATION, IMAGE_SEARCH_META, PRODUCT, PRODUCT_FACET_VALUE,
} from '../support/shapes.js';
import { googleAdsScenario } from '../google-ads/scenario.js';
import { P_GLOW, SHOP_GLOW, T1, tiktokScenario } from '../tiktok/scenario.js';
import { facetValues } from '../support/discovery-scenario.js';
import { EMAIL_SUMMARY, LINKED_ADVERTISER, SHOP_PRODUCT, SHOP_SUMMARY } from '../shops/shapes.js';
import { drawDesign, encodeJpeg } from '../../src/data/images/draw.js';
import { imageScenario } from '../products/image-scenario.js';
import { BRANDTRACKER, BRANDTRACKER_CHANGE, BRANDTRACKER_DETAIL, FOLDER, LINKS_RESULT, ROW_BRANDTRACKER } from '../brandtrackers/shapes.js';
import { savingCases, setupSavingCases } from '../boards/envelope-cases.js';
import { setupWebhookCases, webhookCases } from '../webhooks/envelope-cases.js';
import { savedSearchCases, setupSavedSearchCases } from '../saved-searches/envelope-cases.js';
import { exportCases, setupExportCases } from '../exports/envelope-cases.js';
import { brandChangeCases } from '../brand-changes/envelope-cases.js';
import { recordEvents } from '../../src/data/events.js';
import { dispatchOnce } from '../../src/events/index.js';

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
    await facetValues(db);
    await db.prisma.email.create({ data: { id: 880001, shopId: SHOP_GLOW, sentAt: new Date(), fromAddress: 'hi@glowlab.co', campaignType: 'campaign', subject: 'Hi', body: 'Hello', bodyLength: 5 } });
    await imageScenario(db);
  });
  const created = await t.newKey();
  key = created.apiKey;
  ws = created;
  // Distinct figures, so every credit field is checked against a value of its own.
  await setCredits(t.db.prisma, { workspace: created.slug, recurringLimit: 500, recurringUsed: 120, topup: 30 });
  // Brandtrackers: page 1 tracked in folder 900, page 2 and the shop tracked at the root (the deletes take them in turn);
  // folders 901-904 for the folder deletes.
  const shop = await t.db.prisma.shop.findUniqueOrThrow({ where: { domain: 'nordicglow.com' } });
  await t.db.prisma.brandtracker.createMany({
    data: [
      { id: BT[0], facebookPageId: '1000000000000001', name: 'Nordic Glow' },
      { id: BT[1], facebookPageId: '1000000000000002', name: 'Peak Fitness Store' },
      { id: BT[2], targetType: 'shop', websiteId: shop.id, name: 'Nordic Glow shop' },
    ],
  });
  await t.db.prisma.brandtrackerFolder.createMany({ data: [900, 901, 902, 903, 904].map((id) => ({ id, workspaceId: ws.workspaceId, name: `Folder ${id}`, rank: id - 899 })) });
  await t.db.prisma.brandtrackerLink.createMany({ data: BT.map((brandtrackerId, i) => ({ workspaceId: ws.workspaceId, brandtrackerId, folderId: i === 0 ? 900 : null })) });
  await setupSavingCases(t, key);
  // A webhook's delivery of an event of the workspace, before the feed's events (the feed shows the newest first).
  await setupWebhookCases(t, key, ws.workspaceId);
  await setupSavedSearchCases(t, key);
  await setupExportCases(t, key);
  // Two events of the tracked page 1, dispatched: the feed's page.
  await recordEvents(t.db.pool, 'meta-ads', [1, 2].map((n) => ({ type: 'ad.created', dedupeKey: `envelopes:${n}`, advertiserId: '1000000000000001', adId: `facebook_${n}`, data: { before: null, after: { status: 'active' } } })));
  await dispatchOnce(t.db.pool, []);
});
afterAll(() => t?.close());

const todayUtc = () => {
  const now = new Date();
  return Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
};

const BT = ['4a1c0d2e-0000-4000-8000-0000000000e1', '4a1c0d2e-0000-4000-8000-0000000000e2', '4a1c0d2e-0000-4000-8000-0000000000e3'];
/** Each call of a route that removes something gets the next one (the unauthenticated calls take one each too). */
const turns = <T>(items: T[]) => {
  let next = 0;
  return () => items[Math.min(next++, items.length - 1)];
};
const nextDeletedBrandtracker = turns([BT[1], BT[2]]);
const nextDeletedFolder = turns([901, 902, 903, 904]);
let folderNames = 0;

const pageList = (item: object) => ({ body }: HttpResult) => {
  expect(keysOf(body)).toEqual(['data', 'pagination', 'requestId']);
  expect(body.data.length).toBeGreaterThan(0);
  for (const row of body.data) expect(keyPaths(row)).toEqual(keyPaths(item));
  expect(keyPaths(body.pagination)).toEqual(keyPaths(PAGE_PAGINATION));
};
const meteredRows = ({ body, headers }: HttpResult) => expect(headers.get('x-usage-cost')).toBe(String(body.data.length));

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
        keyPaths({ requestId: 1, status: 1, data: { latestReadyDate: 1, latestScheduledDate: 1, dataFreshnessLagDays: 1, generatedAt: 1, sources: [] } }),
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
      expect(keysOf(body)).toEqual(['data', 'meta', 'pagination', 'requestId']);
      expect(body.meta).toEqual({ totalRelation: 'eq' });
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
      expect(keysOf(body)).toEqual(['data', 'meta', 'pagination', 'requestId']);
      expect(body.meta).toEqual({ totalRelation: 'eq' });
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
      expect(keysOf(body)).toEqual(['data', 'meta', 'pagination', 'requestId']);
      expect(body.meta).toEqual({ totalRelation: 'eq' });
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
      expect(keysOf(body)).toEqual(['data', 'meta', 'pagination', 'requestId']);
      expect(body.meta).toEqual({ totalRelation: 'eq' });
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
      expect(keysOf(body)).toEqual(['data', 'meta', 'pagination', 'requestId']);
      expect(body.meta).toEqual({ totalRelation: 'eq' });
      expect(body.pagination).toEqual({ page: 1, limit: 25, total: 2, totalPages: 1 });
      expect(body.data).toHaveLength(2);
      for (const item of body.data) expect(keyPaths(item)).toEqual(keyPaths(TIKTOK_ITEM));
    },
  },
  'GET /shops': {
    path: '/shops?limit=2',
    check: ({ body }) => {
      expect(keysOf(body)).toEqual(['data', 'meta', 'pagination', 'requestId']);
      expect(body.meta).toEqual({ totalRelation: 'eq' });
      expect(body.pagination).toEqual({ limit: 2, offset: 0, total: expect.any(Number) });
      expect(body.data).toHaveLength(2);
      for (const shop of body.data) expectShape(shop, SHOP_SUMMARY);
    },
  },
  'POST /shops/query': {
    path: '/shops/query',
    body: { search: 'https://glowlab.co/products/x', searchType: 'domain' },
    check: ({ body }) => {
      expect(body.pagination).toEqual({ limit: 32, offset: 0, total: 1 });
      expectShape(body.data[0], SHOP_SUMMARY);
      expect(Object.keys(body.data[0])).toEqual(Object.keys(SHOP_SUMMARY)); // tiktok present: the shop has an account
    },
  },
  'GET /shops/:identifier/similar': {
    path: '/shops/unknown.example/similar',
    check: ({ body }) => expect(body).toEqual({ requestId: body.requestId, data: [], pagination: { limit: 32, offset: 0, total: 0 }, meta: { shopExists: false } }),
  },
  'GET /shops/:shopId': {
    path: `/shops/${SHOP_GLOW}`,
    check: ({ body }) => {
      expect(keysOf(body)).toEqual(['data', 'requestId']);
      expect(Object.keys(body.data)).toEqual(['id', 'domain', 'name', 'screenshotUrl', 'createdAt', 'profile', 'trustpilot', 'socials', 'catalog', 'traffic', 'advertising', 'technology', 'tiktok', 'latestAds', 'similarShops', 'provenance']);
    },
  },
  'GET /shops/:shopId/sales/history': { path: `/shops/${SHOP_GLOW}/sales/history`, check: ({ body }) => expect(body).toEqual({ requestId: body.requestId, data: [] }) },
  'GET /shops/:shopId/advertisers': {
    path: `/shops/${SHOP_GLOW}/advertisers`,
    check: ({ body }) => {
      expect(keysOf(body)).toEqual(['data', 'requestId']);
      for (const row of body.data) expect(Object.keys(row)).toEqual(Object.keys(LINKED_ADVERTISER));
    },
  },
  'GET /shops/:shopId/socials/history': { path: `/shops/${SHOP_GLOW}/socials/history`, check: ({ body }) => expect(body).toEqual({ requestId: body.requestId, data: { facebook: [], instagram: [] } }) },
  'GET /shops/:shopId/products': {
    path: `/shops/${SHOP_GLOW}/products`,
    check: ({ body }) => {
      expect(keysOf(body)).toEqual(['data', 'pagination', 'requestId']);
      expect(keyPaths(body.pagination)).toEqual(keyPaths(OFFSET_PAGINATION));
      for (const row of body.data) expect(Object.keys(row)).toEqual(Object.keys(SHOP_PRODUCT));
    },
  },
  'GET /shops/:shopId/emails': {
    path: `/shops/${SHOP_GLOW}/emails`,
    check: ({ body }) => {
      expect(keysOf(body)).toEqual(['data', 'meta', 'pagination', 'requestId']);
      expect(body.meta).toEqual({ totalRelation: 'eq' });
      // The saving cases (test/boards/envelope-cases.ts) add emails to a shop of the scenario too.
      expect(body.pagination).toEqual({ page: 1, limit: 25, total: body.data.length, totalPages: 1 });
      expect(body.data.length).toBeGreaterThan(0);
      for (const email of body.data) expectShape(email, EMAIL_SUMMARY);
    },
  },
  'GET /shops/:shopId/emails/stats': {
    path: `/shops/${SHOP_GLOW}/emails/stats?month=2026-01`,
    check: ({ body }) => {
      expect(keyPaths(body.data)).toEqual(['calendar', 'calendar.emailsByDate', 'calendar.month', 'calendar.totalEmails', 'last90Days', 'last90Days.avgEmailsPerWeek',
        'last90Days.emailsByDayOfWeek', 'last90Days.emailsByDayOfWeek.0', 'last90Days.emailsByDayOfWeek.1', 'last90Days.emailsByDayOfWeek.2', 'last90Days.emailsByDayOfWeek.3',
        'last90Days.emailsByDayOfWeek.4', 'last90Days.emailsByDayOfWeek.5', 'last90Days.emailsByDayOfWeek.6', 'last90Days.totalEmails']);
    },
  },
  'POST /emails/query': {
    path: '/emails/query',
    body: {},
    check: ({ body }) => {
      expect(keysOf(body)).toEqual(['data', 'meta', 'pagination', 'requestId']);
      expect(body.meta).toEqual({ totalRelation: 'eq' });
      expect(keyPaths(body.pagination)).toEqual(keyPaths(PAGE_PAGINATION));
      expect(Object.keys(body.data[0])).toEqual(Object.keys(EMAIL_SUMMARY));
      expectShape(body.data[0], EMAIL_SUMMARY);
    },
  },
  'GET /emails/:emailId': {
    path: '/emails/880001',
    check: ({ body }) => expect(Object.keys(body.data)).toEqual(['id', 'sentAt', 'campaignType', 'classification', 'content', 'shop', 'language']),
  },
  'GET /emails/:emailId/html': { path: '/emails/880001/html', check: ({ body }) => expect(body).toEqual({ requestId: body.requestId, data: { emailId: 880001, html: null, htmlLength: 0 } }) },
  'POST /google-ads/query': {
    path: '/google-ads/query',
    body: { status: 'active' },
    check: ({ body }) => {
      expect(keysOf(body)).toEqual(['data', 'meta', 'pagination', 'requestId']);
      expect(body.meta).toEqual({ totalRelation: 'eq' });
      expect(body.pagination).toEqual({ page: 1, limit: 25, total: 3, totalPages: 1 });
      expect(body.data).toHaveLength(3);
      for (const ad of body.data) {
        expect(keyPaths(ad)).toEqual(keyPaths(GOOGLE_AD));
        expect(Object.keys(ad)).toEqual(Object.keys(GOOGLE_AD));
      }
    },
  },
  ...facetCases(),
  'GET /lookup': {
    path: '/lookup?q=nordicglow.com',
    check: ({ body }) => {
      expect(keysOf(body)).toEqual(['data', 'meta', 'requestId']);
      expect(body.data.map((r: { type: string }) => r.type)).toEqual(expect.arrayContaining(['advertiser', 'shop']));
      // The envelope test tracks page 1 (below): its row carries the brandtracker, the shop's does not.
      for (const row of body.data) expectShape(row, LOOKUP_RESULT);
      expect(keyPaths(body.meta)).toEqual(keyPaths({ ...LOOKUP_META, warnings: [] }));
    },
  },
  'GET /lookup/facebook-shop': {
    path: '/lookup/facebook-shop?facebookPageId=1000000000000001',
    check: ({ body }) => {
      expect(keysOf(body)).toEqual(['data', 'meta', 'requestId']);
      expect(Object.keys(body.data)).toEqual(['input', 'primaryShop', 'shops', 'primaryFacebookPage', 'facebookPages']);
      expect(body.data.shops).toHaveLength(1);
      expect(keyPaths(body.data)).toEqual(keyPaths({ input: { type: 1, id: 1 }, primaryShop: FACEBOOK_SHOP_ENTRY, shops: [FACEBOOK_SHOP_ENTRY], primaryFacebookPage: null, facebookPages: [] }));
      expect(body.meta).toEqual({ limit: 50, returnedShops: 1, returnedFacebookPages: 0 });
    },
  },
  'GET /advertisers': {
    path: '/advertisers?search=nordic',
    check: ({ body }) => {
      expect(Object.keys(body)).toEqual(['requestId', 'data', 'pagination', 'meta']);
      expect(body.data).toHaveLength(1);
      expect(keyPaths(body.data)).toEqual(keyPaths([{ ...ADVERTISER_SUMMARY, mainLandingPages: [] }]));
      expect(Object.keys(body.data[0])).toEqual(Object.keys(ADVERTISER_SUMMARY));
      expect(body.pagination).toEqual({ limit: 20, offset: 0, total: 1 });
      expect(body.meta).toEqual({ isTruncated: false, totalRelation: 'eq' });
    },
  },
  'POST /advertisers/query': {
    path: '/advertisers/query',
    body: {},
    check: ({ body }) => {
      expect(Object.keys(body)).toEqual(['requestId', 'data', 'pagination', 'meta']);
      expect(body.data.length).toBeGreaterThan(0);
      for (const advertiser of body.data) expect(Object.keys(advertiser)).toEqual(Object.keys(ADVERTISER_SUMMARY));
      expect(keyPaths(body.pagination)).toEqual(keyPaths(OFFSET_PAGINATION));
    },
  },
  'GET /advertisers/:advertiserId': {
    path: '/advertisers/1000000000000002',
    check: ({ body }) => {
      expect(keysOf(body)).toEqual(['data', 'requestId']);
      expect(keyPaths(body.data)).toEqual(keyPaths({ ...ADVERTISER_DETAIL, linkedShops: [] }));
      expect(Object.keys(body.data)).toEqual(Object.keys(ADVERTISER_DETAIL));
      expect(body.data.lastAds.map((ad: { id: string }) => ad.id)).toEqual(['facebook_9004']);
    },
  },
  'GET /advertisers/:advertiserId/ads': {
    path: '/advertisers/1000000000000001/ads',
    check: ({ body }) => {
      expect(keysOf(body)).toEqual(['data', 'pagination', 'requestId']);
      expect(body.data.map((ad: { id: string }) => ad.id)).toEqual(['facebook_9001', 'facebook_9003']);
      expect(keyPaths(body.data.slice(0, 1))).toEqual(keyPaths([AD_SUMMARY_GROUPED]));
      expect(keyPaths(body.data.slice(1))).toEqual(keyPaths([AD_SUMMARY]));
      expect(body.pagination).toEqual({ limit: 25, offset: 0, total: 2 });
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
  'GET /products': {
    path: '/products?limit=1',
    check: ({ body }) => {
      expect(keyPaths(body)).toEqual(keyPaths({ requestId: 1, data: [PRODUCT], pagination: CURSOR_PAGINATION }));
      expect(body.pagination).toEqual({ limit: 1, total: 9, totalRelation: 'eq', nextCursor: expect.any(String) });
    },
  },
  'POST /products/query': {
    path: '/products/query',
    body: { limit: 1, currencies: ['EUR'] },
    check: ({ body }) => {
      expect(keyPaths(body)).toEqual(keyPaths({ requestId: 1, data: [PRODUCT], pagination: CURSOR_PAGINATION }));
      expect(body.pagination).toEqual({ limit: 1, total: 4, totalRelation: 'eq', nextCursor: expect.any(String) });
    },
  },
  'GET /products/facets': {
    path: '/products/facets',
    check: ({ body }) => {
      expect(keyPaths(body)).toEqual(keyPaths({ requestId: 1, data: { currencies: [PRODUCT_FACET_VALUE], shopCountries: [PRODUCT_FACET_VALUE], shopVisitorCountries: [PRODUCT_FACET_VALUE] } }));
    },
  },
  'POST /products/image-search': {
    path: '/products/image-search',
    body: { image: encodeJpeg(drawDesign(22, 200), 80).toString('base64'), limit: 1 },
    check: ({ body }) => {
      expect(keyPaths(body)).toEqual(keyPaths({ requestId: 1, data: [{ score: 1, product: { ...PRODUCT, weeklyHistory: [] } }], pagination: OFFSET_PAGINATION, meta: IMAGE_SEARCH_META }));
      expect(body.pagination).toEqual({ limit: 1, offset: 0, total: 1 });
    },
  },
  'POST /shops/image-search': {
    path: '/shops/image-search',
    body: { image: encodeJpeg(drawDesign(22, 200), 80).toString('base64') },
    check: ({ body }) => {
      expect(keysOf(body)).toEqual(['data', 'meta', 'pagination', 'requestId']);
      expect(body.data.map((match: { shop: { domain: string } }) => match.shop.domain)).toEqual(['peakgear.com']);
      expect(Object.keys(body.data[0].shop)).toEqual(Object.keys(SHOP_SUMMARY));
      expect(keysOf(body.meta)).toEqual(['expiresAt', 'searchId']);
    },
  },
  'GET /brandtrackers': {
    path: `/brandtrackers?folderIds=900`,
    check: pageList({ ...BRANDTRACKER, folder: { id: 1, name: 1 }, websites: [] }),
  },
  'POST /brandtrackers': {
    path: '/brandtrackers',
    body: { facebookPageId: '1000000000000001' },
    check: ({ body }) => {
      expect(Object.keys(body)).toEqual(['requestId', 'data', 'created']);
      expect(keyPaths(body.data)).toEqual(keyPaths({ ...BRANDTRACKER_CHANGE, folder: { id: 1, name: 1 }, websites: [] }));
      expect(body).toMatchObject({ created: false, data: { id: BT[0], workspaceLinkId: expect.any(Number) } });
    },
  },
  'GET /brandtrackers/folders': {
    path: '/brandtrackers/folders',
    check: ({ body }) => {
      expect(keysOf(body)).toEqual(['data', 'requestId']);
      expect(keyPaths(body.data)).toEqual(keyPaths([FOLDER]));
    },
  },
  'POST /brandtrackers/folders': {
    path: '/brandtrackers/folders',
    get body() {
      return { name: `New folder ${++folderNames}` };
    },
    check: ({ body }) => expect(keyPaths(body)).toEqual(keyPaths({ requestId: 1, data: FOLDER })),
  },
  'PATCH /brandtrackers/folders/:folderId': {
    path: '/brandtrackers/folders/900',
    body: { name: 'Rivals' },
    check: ({ body }) => expect(body.data).toMatchObject({ id: 900, name: 'Rivals', brandtrackerCount: 1 }),
  },
  'DELETE /brandtrackers/folders/:folderId': {
    get path() {
      return `/brandtrackers/folders/${nextDeletedFolder()}`;
    },
    body: { action: 'move-to-default', confirm: true },
    check: ({ body }) => expect(body.data).toEqual({ deleted: true, action: 'move-to-default', affectedCount: 0 }),
  },
  'GET /brandtrackers/folders/:folderId/brandtrackers': {
    path: '/brandtrackers/folders/900/brandtrackers',
    check: pageList({ ...BRANDTRACKER, folder: { id: 1, name: 1 }, websites: [] }),
  },
  'PATCH /brandtrackers/workspace-links': {
    path: '/brandtrackers/workspace-links',
    body: { brandtrackerIds: [BT[0]], folderId: 900 },
    check: ({ body }) => {
      expect(keyPaths(body)).toEqual(keyPaths({ requestId: 1, data: LINKS_RESULT }));
      expect(body.data).toMatchObject({ requestedCount: 1, affectedCount: 1 });
    },
  },
  'DELETE /brandtrackers/workspace-links': {
    path: '/brandtrackers/workspace-links',
    body: { workspaceLinkIds: [123456], confirm: true },
    check: ({ body }) => expect(body.data).toEqual({ requestedCount: 1, affectedCount: 0, notFoundBrandtrackerIds: [], notFoundWorkspaceLinkIds: [123456] }),
  },
  'GET /brandtrackers/:brandtrackerId': {
    path: `/brandtrackers/${BT[0]}`,
    check: ({ body }) => {
      expect(keysOf(body)).toEqual(['data', 'requestId']);
      expect(Object.keys(body.data)).toEqual(Object.keys(BRANDTRACKER_DETAIL)); // the specification's key order
    },
  },
  'PATCH /brandtrackers/:brandtrackerId': {
    path: `/brandtrackers/${BT[0]}`,
    body: { name: 'Glow (ours)' },
    check: ({ body }) => expect(body.data).toMatchObject({ id: BT[0], name: 'Glow (ours)' }),
  },
  'DELETE /brandtrackers/:brandtrackerId': {
    get path() {
      return `/brandtrackers/${nextDeletedBrandtracker()}`;
    },
    check: ({ body }) => expect(body.data).toEqual({ id: expect.stringMatching(UUID), deleted: true }),
  },
  'GET /brandtrackers/:brandtrackerId/snapshots': {
    path: `/brandtrackers/${BT[0]}/snapshots`,
    check: ({ body }) => {
      expect(keyPaths(body)).toEqual(keyPaths({
        requestId: 1, data: { latestDate: 1, latestReadyDate: 1, latestScheduledDate: 1, dates: [1], snapshots: [{ date: 1, status: 1, usableRows: 1, indexedRows: 1 }] }, pagination: PAGE_PAGINATION,
      }));
      expect(body.data.latestReadyDate).toBe('2026-11-21');
    },
  },
  'GET /brandtrackers/:brandtrackerId/media-mix': {
    path: `/brandtrackers/${BT[0]}/media-mix?snapshotDate=latest`,
    check: ({ body }) => {
      expect(keyPaths(body)).toEqual(keyPaths({
        requestId: 1, data: { activeAds: 1, formatCount: { image: 1, video: 1, dco: 1, other: 1 } }, meta: { requestedSnapshotDate: 1, resolvedSnapshotDate: 1, dataFreshnessLagDays: 1, periodNote: 1 },
      }));
      expect(body.data.activeAds).toBe(body.data.formatCount.image + body.data.formatCount.video + body.data.formatCount.dco + body.data.formatCount.other);
    },
  },
  'GET /brandtrackers/:brandtrackerId/scaling-ads': {
    path: `/brandtrackers/${BT[0]}/scaling-ads?snapshotDate=latest`,
    check: ({ body }) => {
      expect(keysOf(body)).toEqual(['data', 'meta', 'pagination', 'requestId']);
      expect(keyPaths(body.data)).toEqual(keyPaths([{ ad: AD_SUMMARY_GROUPED, metrics: { currentRank: 1, previousRank: 1, rankDelta: 1, improvementPct: 1 }, trajectory: [{ date: 1, rank: 1, totalAds: 1 }] }]));
      expect(body.meta).toMatchObject({ requestedSnapshotDate: 'latest', resolvedSnapshotDate: null });
    },
  },
  'GET /brandtrackers/:brandtrackerId/ad-rank': {
    path: `/brandtrackers/${BT[0]}/ad-rank?timeWindow=7d&minRankDelta=0`,
    check: ({ body }) => {
      expect(keysOf(body)).toEqual(['data', 'meta', 'pagination', 'requestId']);
      expect(keyPaths(body.pagination)).toEqual(keyPaths(PAGE_PAGINATION));
      expect(body.data).toEqual([]); // no ad of the scenario has a 7-day window delta
    },
  },
  'GET /brandtrackers/:brandtrackerId/landing-pages/simple': {
    path: `/brandtrackers/${BT[0]}/landing-pages/simple?timePeriod=last1y&snapshotDate=latest`,
    check: ({ body }) => {
      expect(keysOf(body)).toEqual(['data', 'pagination', 'requestId']);
      expect(body.data).toEqual([]); // no ad of the scenario has a landing page record
      expect(keyPaths(body.pagination)).toEqual(keyPaths(PAGE_PAGINATION));
    },
  },
  'GET /brandtrackers/:brandtrackerId/creatives': {
    path: `/brandtrackers/${BT[0]}/creatives?snapshotDate=latest`,
    check: pageList({ adId: 1, mediaType: 1, mediaUrl: 1, thumbnailUrl: 1, firstSeenAt: 1, daysRunning: 1, duplicates: 1 }),
  },
  'GET /brandtrackers/:brandtrackerId/partners': {
    path: `/brandtrackers/${BT[0]}/partners?timePeriod=last30d&cpm=10`,
    check: ({ body }) => {
      expect(keysOf(body)).toEqual(['data', 'pagination', 'requestId']);
      expect(body.data).toEqual([]); // no ad of the scenario names a partner page
      expect(keyPaths(body.pagination)).toEqual(keyPaths(PAGE_PAGINATION));
    },
  },
  'GET /brandtrackers/:brandtrackerId/demography': {
    path: `/brandtrackers/${BT[0]}/demography?snapshotDate=latest&timePeriod=last7d`,
    check: ({ body }) => {
      expect(keysOf(body)).toEqual(['data', 'requestId']);
      expect(body.data).toEqual({ hasData: false, countryDistribution: [], ageDistribution: [], genderDistribution: [] });
    },
  },
  'GET /brandtrackers/:brandtrackerId/ads': {
    path: `/brandtrackers/${BT[0]}/ads`,
    check: ({ body }) => {
      expect(keysOf(body)).toEqual(['data', 'meta', 'pagination', 'requestId']);
      expect(body.meta).toEqual({ totalRelation: 'eq' });
      expect(body.data.map((ad: { id: string }) => ad.id)).toEqual(['facebook_9001', 'facebook_9003']);
      expect(keyPaths(body.data.slice(0, 1))).toEqual(keyPaths([AD_SUMMARY_GROUPED]));
      expect(keyPaths(body.data.slice(1))).toEqual(keyPaths([AD_SUMMARY]));
      expect(body.pagination).toEqual({ page: 1, limit: 25, total: 2, totalPages: 1 });
    },
  },
  'GET /brandtrackers/:brandtrackerId/partnership-ads': {
    path: `/brandtrackers/${BT[0]}/partnership-ads?status=all`,
    check: ({ body }) => expect(body).toEqual({ requestId: expect.any(String), data: [], pagination: { page: 1, limit: 25, total: 0, totalPages: 0 }, meta: { totalRelation: 'eq' } }),
  },
  'GET /brandtrackers/:brandtrackerId/partnership-ads/count': {
    path: `/brandtrackers/${BT[0]}/partnership-ads/count`,
    check: ({ body }) => expect(body).toEqual({ requestId: expect.any(String), data: { count: 0 } }),
  },
  ...Object.fromEntries(([
    ['hooks', { hook: 1, usageCount: 1, longestRunning: 1, totalImpressions: 1, firstUsedAt: 1, lastUsedAt: 1, sampleAd: { adId: 1, mediaUrl: 1, thumbnailUrl: 1, fullText: 1 } }],
    ['transcripts', { fullText: 1, usageCount: 1, longestRunning: 1, totalImpressions: 1, firstUsedAt: 1, lastUsedAt: 1, sampleAd: { adId: 1, mediaUrl: 1, thumbnailUrl: 1 } }],
    ['headlines', { headline: 1, usageCount: 1, longestRunning: 1 }],
    ['ad-copies', { adCopy: 1, usageCount: 1, longestRunning: 1 }],
  ] as const).map(([route, row]): [string, Case] => [`GET /brandtrackers/:brandtrackerId/${route}`, {
    path: `/brandtrackers/${BT[0]}/${route}`,
    check: ({ body }) => {
      expect(keysOf(body)).toEqual(['data', 'meta', 'pagination', 'requestId']);
      expect(body.data.length).toBeGreaterThan(0);
      for (const item of body.data) expect(keyPaths(item)).toEqual(keyPaths(row));
      expect(keyPaths(body.pagination)).toEqual(keyPaths(PAGE_PAGINATION));
      expect(body.meta).toEqual({ requestedSnapshotDate: null, resolvedSnapshotDate: null, dataFreshnessLagDays: null, periodNote: 'Live active ads.' });
    },
  }])),
  'GET /brandtrackers/:brandtrackerId/time-series': {
    path: `/brandtrackers/${BT[0]}/time-series?startDate=2026-11-19&endDate=2026-11-21`,
    check: ({ body }) => {
      const count = [{ date: 1, count: 1 }];
      expect(keyPaths(body)).toEqual(keyPaths({
        requestId: 1,
        data: { granularity: 1, dateRange: { startDate: 1, endDate: 1 }, adsLaunched: count, liveAds: count, euImpressionsSpend: [{ date: 1, impressions: 1, cumulativeImpressions: 1, estimatedSpend: 1 }], cpm: 1 },
        meta: { requestedSnapshotDate: 1, resolvedSnapshotDate: 1, dataFreshnessLagDays: 1, periodNote: 1 },
      }));
      expect(body.data.liveAds.map((point: { date: string }) => point.date)).toEqual(['2026-11-19', '2026-11-20', '2026-11-21']);
    },
  },
  ...Object.fromEntries((['adCopy', 'headline', 'landingPage'] as const).map((kind) => {
    const path = { adCopy: 'ad-copy-evolution', headline: 'headline-evolution', landingPage: 'landing-page-evolution' }[kind];
    return [`GET /brandtrackers/:brandtrackerId/${path}`, {
      path: `/brandtrackers/${BT[0]}/${path}?startDate=2026-11-19&endDate=2026-11-21`,
      check: ({ body }: HttpResult) => {
        const point = { date: 1, recordedAt: 1, activeAds: 1, totalAds: 1, euAds: 1, euActiveAds: 1, totalReach: 1, percentNewAds: 1 };
        expect(keyPaths(body)).toEqual(keyPaths({
          requestId: 1, dateRange: { startDate: 1, endDate: 1 }, pagination: PAGE_PAGINATION,
          meta: { requestedSnapshotDate: 1, resolvedSnapshotDate: 1, dataFreshnessLagDays: 1, periodNote: 1 },
          // This scenario's ads of the brand have no landing page row: no landing-page series (test/brandtracker-analytics has them).
          data: kind === 'landingPage' ? [] : [{ [kind]: 1, points: [point] }],
        }));
      },
    }];
  })),
  'GET /brandtrackers/:brandtrackerId/timeline': {
    path: `/brandtrackers/${BT[0]}/timeline`,
    check: ({ body }) => {
      expect(keysOf(body)).toEqual(['data', 'pagination', 'requestId']);
      expect(body.pagination).toEqual({ page: 1, limit: 25, total: 2, totalPages: 1 });
      expect(body.data.map((ad: { id: string }) => ad.id)).toEqual(['facebook_9001', 'facebook_9003']);
      expect(keyPaths(body.data[0])).toEqual(keyPaths(AD_SUMMARY_GROUPED));
      expect(keyPaths(body.data[1])).toEqual(keyPaths(AD_SUMMARY));
    },
  },
  'GET /brandtrackers/:brandtrackerId/timeline/metadata': {
    path: `/brandtrackers/${BT[0]}/timeline/metadata?status=inactive`,
    check: ({ body }) => expect(body).toEqual({ requestId: expect.any(String), data: { totalCount: 1, earliestDate: '2025-01-09', latestDate: '2025-02-08' } }),
  },
  'GET /brandtrackers/:brandtrackerId/landing-pages': {
    // The scenario's ads of this brand link to no stored landing page: the shape of the rows is checked in test/brandtracker-analytics.
    path: `/brandtrackers/${BT[0]}/landing-pages?timePeriod=last1y`,
    check: ({ body }) => {
      expect(keysOf(body)).toEqual(['data', 'pagination', 'requestId']);
      expect(body.data).toEqual([]);
      expect(body.pagination).toEqual({ page: 1, limit: 20, total: 0, totalPages: 0 });
    },
  },
  'GET /brandtrackers/:brandtrackerId/overview': {
    path: `/brandtrackers/${BT[0]}/overview?timeSeriesPeriod=7d&timeSeriesGranularity=weekly&snapshotDate=latest`,
    check: ({ body }) => {
      const point = { date: 1, count: 1 };
      const { topAds, adsPreview, topLandingPages, ...rest } = body.data;
      expect(keyPaths({ ...body, data: rest })).toEqual(keyPaths({
        requestId: 1, meta: { requestedSnapshotDate: 1, resolvedSnapshotDate: 1, dataFreshnessLagDays: 1, periodNote: 1 },
        data: {
          graph: { granularity: 1, dateRange: { startDate: 1, endDate: 1 }, adsLaunched: [point], liveAds: [point], euImpressionsSpend: [{ date: 1, impressions: 1, cumulativeImpressions: 1, estimatedSpend: 1 }], cpm: 1 },
          mediaMix: { activeAds: 1, formatCount: { image: 1, video: 1, dco: 1, other: 1 } },
        },
      }));
      for (const section of [topAds, adsPreview, topLandingPages]) expect(keyPaths(section.pagination)).toEqual(keyPaths(PAGE_PAGINATION));
      for (const row of topAds.data) expect(keyPaths(row)).toEqual(keyPaths({ ad: row.ad.metrics.duplicates > 1 ? AD_SUMMARY_GROUPED : AD_SUMMARY, metrics: { totalReach: 1, duplicateCount: 1, daysRunning: 1, currentRank: 1 } }));
      for (const ad of adsPreview.data) expect(keyPaths(ad)).toEqual(keyPaths(ad.metrics.duplicates > 1 ? AD_SUMMARY_GROUPED : AD_SUMMARY));
      expect(adsPreview.data.length).toBeGreaterThan(0);
      expect(body.data.graph.granularity).toBe('weekly');
    },
  },
  'GET /brandtrackers/:brandtrackerId/testing': {
    path: `/brandtrackers/${BT[0]}/testing?limit=50`,
    check: ({ body }) => {
      expect(keysOf(body)).toEqual(['data', 'pagination', 'requestId']);
      expect(keyPaths(body.pagination)).toEqual(keyPaths(PAGE_PAGINATION));
      expect(body.data.length).toBeGreaterThan(0);
      for (const { ads, ...batch } of body.data) {
        expect(keyPaths(batch)).toEqual(keyPaths({
          startDate: 1, adsReturned: 1, maxAdsPerBatch: 1, adsTruncated: 1, runningCount: 1, isWinner: 1,
          stats: { reach: { min: 1, avg: 1, max: 1, total: 1 }, daysRunning: { min: 1, avg: 1, max: 1 }, activeCount: 1, totalCount: 1, bestPerformerId: 1 },
        }));
        for (const ad of ads) expect(keyPaths(ad)).toEqual(keyPaths(ad.metrics.duplicates > 1 ? AD_SUMMARY_GROUPED : AD_SUMMARY));
        expect(batch.adsReturned).toBe(ads.length);
      }
    },
  },
  'GET /brandtrackers/:brandtrackerId/top-ads': {
    path: `/brandtrackers/${BT[0]}/top-ads?period=last7d&snapshotDate=latest`,
    check: (res) => {
      pageList({ ad: AD_SUMMARY_GROUPED, metrics: { totalReach: 1, duplicateCount: 1, daysRunning: 1, currentRank: 1 } })(res);
      expect(res.headers.get('x-usage-cost')).toBe('0');
    },
  },
  'GET /workspace/folders': {
    path: '/workspace/folders',
    check: ({ body }) => {
      expect(keysOf(body)).toEqual(['data', 'requestId']);
      expect(keyPaths(body.data)).toEqual(keyPaths([FOLDER]));
    },
  },
  'GET /workspace/top-ads': {
    path: '/workspace/top-ads?limit=1',
    check: (res) => {
      pageList({ brandtracker: ROW_BRANDTRACKER, ad: AD_SUMMARY_GROUPED, metrics: { totalReach: 1, duplicateCount: 1, daysRunning: 1, currentRank: 1 } })(res);
      meteredRows(res);
    },
  },
  'GET /workspace/hooks': {
    path: '/workspace/hooks',
    check: (res) => {
      pageList({ brandtracker: ROW_BRANDTRACKER, hook: { text: 1, sampleAd: { adId: 1, mediaUrl: 1, thumbnailUrl: 1, fullText: 1 } }, metrics: { usageCount: 1, longestRunning: 1, totalImpressions: 1, firstUsedAt: 1, lastUsedAt: 1 } })(res);
      meteredRows(res);
    },
  },
  'GET /workspace/ad-copies': {
    path: '/workspace/ad-copies',
    check: (res) => {
      pageList({ brandtracker: ROW_BRANDTRACKER, adCopy: { text: 1 }, metrics: { usageCount: 1, longestRunning: 1 } })(res);
      meteredRows(res);
    },
  },
  'GET /workspace/landing-pages': {
    path: '/workspace/landing-pages',
    check: ({ body, headers }) => {
      expect(keysOf(body)).toEqual(['data', 'pagination', 'requestId']);
      expect(body.data).toEqual([]); // no ad of the scenario has a landing page record
      expect(headers.get('x-usage-cost')).toBe('0');
    },
  },
  'GET /workspace/scaling-ads': {
    path: '/workspace/scaling-ads',
    check: (res) => {
      pageList({ brandtracker: ROW_BRANDTRACKER, ad: AD_SUMMARY_GROUPED, metrics: { currentRank: 1, previousRank: 1, rankDelta: 1, improvementPct: 1 }, trajectory: [{ date: 1, rank: 1, totalAds: 1 }] })(res);
      meteredRows(res);
    },
  },
  'GET /workspace/media-mix': {
    path: '/workspace/media-mix',
    check: (res) => {
      pageList({ brandtracker: ROW_BRANDTRACKER, mediaMix: { formatCount: { image: 1, video: 1, dco: 1, other: 1 } }, metrics: { activeAds: 1 } })(res);
      meteredRows(res);
    },
  },
  'GET /events': {
    path: '/events?limit=1',
    check: (res) => {
      const { body } = res;
      expect(Object.keys(body)).toEqual(['requestId', 'data', 'pagination']);
      expect(Object.keys(body.data[0])).toEqual(['id', 'type', 'occurredAt', 'source', 'advertiserId', 'adId', 'shopId', 'productId', 'savedSearchId', 'webhookId', 'data']);
      expect(body.data[0]).toMatchObject({ id: expect.stringMatching(/^evt_\d+$/), type: 'ad.created', occurredAt: expect.stringMatching(ISO), adId: 'facebook_2', data: { before: null, after: { status: 'active' } } });
      expect(body.pagination).toEqual({ limit: 1, total: 2, totalRelation: 'gte', nextCursor: expect.any(String) });
      expect(keyPaths(body.pagination)).toEqual(keyPaths(CURSOR_PAGINATION));
      meteredRows(res);
    },
  },
  ...savingCases(),
  ...webhookCases(),
  ...savedSearchCases(),
  ...exportCases(),
  ...brandChangeCases({ brandtrackerId: BT[0], advertiserId: '1000000000000001', shopId: SHOP_GLOW }),
};

/** GET /v1/facets/*: values, offset pagination and meta, each list with its own item shape. */
function facetCases(): Record<string, Case> {
  return Object.fromEntries(
    Object.entries(FACET_ITEMS).map(([name, item]) => [
      `GET /facets/${name}`,
      {
        path: `/facets/${name}`,
        check: ({ body }: HttpResult) => {
          expect(Object.keys(body)).toEqual(['requestId', 'data', 'pagination', 'meta']);
          expect(body.data.length).toBeGreaterThan(0);
          expect(keyPaths(body.data)).toEqual(keyPaths([item]));
          expect(Object.keys(body.data[0])).toEqual(Object.keys(item));
          expect(keyPaths(body.pagination)).toEqual(keyPaths(OFFSET_PAGINATION));
          expect(keyPaths(body.meta)).toEqual(keyPaths(FACET_META));
        },
      },
    ]),
  );
}

/** No key beyond the shape's (empty lists and null objects carry fewer), in the shape's order. */
function expectShape(value: object, shape: object) {
  const allowed = new Set(keyPaths(shape));
  expect(keyPaths(value).filter((path) => !allowed.has(path))).toEqual([]);
  expect(Object.keys(value)).toEqual(Object.keys(shape).filter((name) => name in value));
}

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
    // `/_fields/<field>` is where SOFA serves the fields for the REST plugin (rest/plugin.ts): never a public path.
    const internal = [['GET', '/_fields/Query.me'], ['GET', '/_fields/Query.ad?adId=facebook_9001']];
    for (const [method, path] of [['GET', '/nope'], ['GET', '/ads/facebook_9001/nope'], ...internal]) {
      const res = await t.rest(method, path, { key });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(keyPaths(res.body)).toEqual(keyPaths(ERROR));
      expect(res.body.error.code).toBe('not_found');
      expect(res.body.error.requestId).toBe(res.headers.get('x-request-id'));
    }
  });

  it('a known /v1 path asked with another method is a 405 method_not_allowed envelope, with Allow', async () => {
    // HEAD is answered wherever GET is.
    for (const [method, path, allow] of [['PUT', '/ads', 'GET, HEAD'], ['POST', '/ads/facebook_9001', 'GET, HEAD'], ['DELETE', '/me', 'GET, HEAD'], ['GET', '/ads/query', 'POST']]) {
      const res = await t.rest(method, path, { key });
      expect(res.status, `${method} ${path}`).toBe(405);
      expect(res.headers.get('allow')).toBe(allow);
      expect(res.body).toEqual({ error: { code: 'method_not_allowed', message: expect.any(String), requestId: res.headers.get('x-request-id'), details: { allowed: allow.split(', ') } } });
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
