import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.js';
import { AD_SUMMARY, AD_SUMMARY_GROUPED, keyPaths, PAGE_PAGINATION } from '../support/shapes.js';
import { recordStatements } from '../support/statements.js';
import { BT_A, BT_B, brandtrackerScenario, PAGE_A, PAGE_B, PAGE_C, TECH } from '../brandtrackers/scenario.js';
import { ROW_BRANDTRACKER } from '../brandtrackers/shapes.js';

// The six workspace analytics routes across the workspace's active brandtrackers: rows, shapes, filters, sorts,
// the price per returned row on both surfaces, and a constant number of SQL statements per page.

let t: TestApp;
let key: string;
let workspaceId: string;
let folderId: number;
beforeAll(async () => {
  t = await createTestApp(brandtrackerScenario);
  ({ apiKey: key, workspaceId } = await t.newKey());
  folderId = (await t.rest('POST', '/brandtrackers/folders', { key, body: { name: 'Skincare' } })).body.data.id;
  await t.rest('POST', '/brandtrackers', { key, body: { facebookPageId: PAGE_A, folderId } });
  await t.rest('POST', '/brandtrackers', { key, body: { facebookPageId: PAGE_B } });
});
afterAll(() => t?.close());

const get = (path: string, apiKey = key) => t.rest('GET', path, { key: apiKey });
const pairs = (rows: { brandtracker: { id: string } }[], of: (row: never) => unknown) => rows.map((row) => [row.brandtracker.id, of(row as never)]);
const charged = () => t.db.prisma.usageRecord.findMany({ where: { workspaceId }, orderBy: { id: 'asc' } });

describe('hooks, ad copies and landing pages', () => {
  it('groups the hooks of each brand with their figures and sample ad', async () => {
    const res = await get('/workspace/hooks');
    expect(res.status).toBe(200);
    expect(res.body.pagination).toEqual({ page: 1, limit: 20, total: 3, totalPages: 1 });
    expect(keyPaths(res.body.data[0])).toEqual(keyPaths({
      brandtracker: ROW_BRANDTRACKER,
      hook: { text: 1, sampleAd: { adId: 1, mediaUrl: 1, thumbnailUrl: 1, fullText: 1 } },
      metrics: { usageCount: 1, longestRunning: 1, totalImpressions: 1, firstUsedAt: 1, lastUsedAt: 1 },
    }));
    expect(res.body.data[0]).toEqual({
      brandtracker: { id: BT_A, name: 'Nordic Glow', facebookPageId: PAGE_A },
      hook: {
        text: 'Meet the glow serum.',
        sampleAd: { adId: 'facebook_9001', mediaUrl: 'http://api.test/media/ads/facebook_9001.mp4', thumbnailUrl: 'http://api.test/media/ads/facebook_9001-thumb.jpg', fullText: 'Meet the glow serum. Free shipping.' },
      },
      metrics: { usageCount: 2, longestRunning: res.body.data[0].metrics.longestRunning, totalImpressions: 8000, firstUsedAt: '2026-09-30T00:00:00.000Z', lastUsedAt: '2026-11-21T00:00:00.000Z' },
    });
    expect(res.body.data[0].metrics.longestRunning).toBeGreaterThanOrEqual(55);
    const byImpressions = await get('/workspace/hooks?sortBy=totalImpressions&order=asc');
    expect(pairs(byImpressions.body.data, (row: { hook: { text: string } }) => row.hook.text)).toEqual([
      [BT_B, 'Drop day is here.'], [BT_A, 'Meet the glow serum.'], [BT_B, 'Train like a pro.'],
    ]);
    const eu = await get('/workspace/hooks?euOnly=true');
    expect(eu.body.data.map((row: { hook: { text: string } }) => row.hook.text)).toEqual(['Meet the glow serum.', 'Drop day is here.']);
  });

  it('narrows to brandtrackers and folders', async () => {
    const ofB = await get(`/workspace/ad-copies?brandtrackerIds=${BT_B}`);
    expect(pairs(ofB.body.data, (row: { adCopy: { text: string } }) => row.adCopy.text)).toEqual([
      [BT_B, 'Fresh drop today'], [BT_B, 'Summer training plan, free shipping on gear'],
    ]);
    const inFolder = await get(`/workspace/ad-copies?folderIds=${folderId}`);
    expect(inFolder.body.data).toEqual([
      { brandtracker: { id: BT_A, name: 'Nordic Glow', facebookPageId: PAGE_A }, adCopy: { text: 'Summer serum sale with free shipping' }, metrics: { usageCount: 2, longestRunning: inFolder.body.data[0].metrics.longestRunning } },
      { brandtracker: { id: BT_A, name: 'Nordic Glow', facebookPageId: PAGE_A }, adCopy: { text: 'Winter jacket clearance' }, metrics: { usageCount: 1, longestRunning: 30 } },
    ]);
    const missing = '00000000-0000-4000-8000-0000000000ff';
    expect((await get(`/workspace/ad-copies?brandtrackerIds=${missing}`)).body.data).toEqual([]);
    // Another workspace's brandtracker (page C, tracked there only) contributes nothing here, even when named.
    const other = await t.newKey();
    const theirs = (await t.rest('POST', '/brandtrackers', { key: other.apiKey, body: { facebookPageId: PAGE_C } })).body.data;
    expect((await get(`/workspace/ad-copies?brandtrackerIds=${theirs.id}`)).body.data).toEqual([]);
    expect((await get('/workspace/ad-copies?limit=100')).body.data.every((row: { brandtracker: { id: string } }) => row.brandtracker.id !== theirs.id)).toBe(true);
    expect((await get(`/workspace/ad-copies?brandtrackerIds=${theirs.id}`, other.apiKey)).body.data).toEqual([
      { brandtracker: { id: theirs.id, name: 'Gamma Goods', facebookPageId: PAGE_C }, adCopy: { text: 'Gamma everyday basics' }, metrics: { usageCount: 1, longestRunning: 3 } },
    ]);
    const bad = await get('/workspace/ad-copies?sortBy=totalImpressions&folderIds=x&limit=0');
    expect(bad.status).toBe(400);
  });

  it('lists landing pages with technologies and screenshots', async () => {
    const res = await get('/workspace/landing-pages');
    expect(res.body.data[0]).toEqual({
      brandtracker: { id: BT_A, name: 'Nordic Glow', facebookPageId: PAGE_A },
      landingPage: {
        url: 'https://nordicglow.com/products/serum',
        technologies: [{ id: TECH, name: 'Shopify', iconUrl: 'http://api.test/media/tech/shopify.png' }],
        screenshots: { desktop: 'http://api.test/media/lp/serum-desktop.png', mobile: null, head: null },
      },
      metrics: { usageCount: 2, longestRunning: res.body.data[0].metrics.longestRunning, totalImpressions: 8000 },
    });
    expect(res.body.data[1]).toMatchObject({ brandtracker: { id: BT_B }, landingPage: { url: 'https://peakfitness.example/drop', technologies: [] }, metrics: { usageCount: 1, totalImpressions: 700 } });
  });
});

describe('top ads, scaling ads and media mix', () => {
  it('ranks the active ads of the tracked brands, one per duplicate group, as { brandtracker, ad, metrics }', async () => {
    const res = await get('/workspace/top-ads?period=last7d&snapshotDate=latest');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['requestId', 'data', 'pagination']); // no meta when rows came back
    expect(res.body.data.map((row: { ad: { id: string } }) => row.ad.id)).toEqual(['facebook_9004', 'facebook_9001', 'facebook_9101']);
    expect(keyPaths(res.body.data[0])).toEqual(keyPaths({ brandtracker: ROW_BRANDTRACKER, ad: AD_SUMMARY, metrics: { totalReach: 1, duplicateCount: 1, daysRunning: 1, currentRank: 1 } }));
    expect(keyPaths(res.body.data[1].ad)).toEqual(keyPaths(AD_SUMMARY_GROUPED));
    expect(res.body.data[1]).toMatchObject({ brandtracker: { id: BT_A, name: 'Nordic Glow' }, metrics: { totalReach: 8000, duplicateCount: 2, currentRank: 1 } });

    const byReach = await get('/workspace/top-ads?sortBy=reachDelta7d&includeInactive=true&limit=2');
    expect(byReach.body.data.map((row: { ad: { id: string } }) => row.ad.id)).toEqual(['facebook_9004', 'facebook_9001']);
    expect(byReach.body.pagination).toEqual({ page: 1, limit: 2, total: 4, totalPages: 2 });
    expect((await get('/workspace/top-ads?euOnly=true')).body.data.map((row: { ad: { id: string } }) => row.ad.id)).toEqual(['facebook_9001', 'facebook_9101']);
    const none = await get(`/workspace/top-ads?folderIds=${folderId}&page=9`);
    expect(none.body).toEqual({ requestId: none.body.requestId, data: [], pagination: { page: 9, limit: 20, total: 1, totalPages: 1 }, meta: { reason: 'no_matching_ads' } });
    expect((await get('/workspace/top-ads?period=forever')).status).toBe(400);
  });

  it('lists the rank movers with their trajectory', async () => {
    const res = await get('/workspace/scaling-ads');
    expect(res.body.data).toHaveLength(1);
    expect(res.body.data[0]).toMatchObject({
      brandtracker: { id: BT_A },
      ad: { id: 'facebook_9001' },
      metrics: { currentRank: 1, previousRank: 3, rankDelta: 2, improvementPct: 66.7 },
      trajectory: [
        { date: '2026-11-19', rank: 2, totalAds: 1 },
        { date: '2026-11-20', rank: 1, totalAds: 1 },
        { date: '2026-11-21', rank: 1, totalAds: 1 },
      ],
    });
    expect((await get('/workspace/scaling-ads?minRankDelta=3')).body.data).toEqual([]);
    // period and snapshotDate: deprecated, validated as the reference types them, and ignored (the reference says so).
    const deprecated = await get('/workspace/scaling-ads?period=last30d&snapshotDate=2020-01-01');
    expect(deprecated.body.data.map((row: { ad: { id: string } }) => row.ad.id)).toEqual(['facebook_9001']);
    for (const bad of ['period=last90d', 'snapshotDate=yesterday']) {
      const refused = await get(`/workspace/scaling-ads?${bad}`);
      expect(refused.status).toBe(400);
      expect(refused.body.error.code).toBe('validation_error');
    }
    // By rank: both rank 1, the bigger climb first.
    expect((await get('/workspace/scaling-ads?minRankDelta=0&sortBy=current_rank')).body.data.map((row: { ad: { id: string } }) => row.ad.id)).toEqual(['facebook_9001', 'facebook_9004']);
  });

  it('counts each brand\'s active ads by format', async () => {
    const res = await get('/workspace/media-mix');
    expect(res.body).toEqual({
      requestId: res.body.requestId,
      data: [
        { brandtracker: { id: BT_B, name: 'Peak Fitness Store', facebookPageId: PAGE_B }, mediaMix: { formatCount: { image: 1, video: 0, dco: 0, other: 1 } }, metrics: { activeAds: 2 } },
        { brandtracker: { id: BT_A, name: 'Nordic Glow', facebookPageId: PAGE_A }, mediaMix: { formatCount: { image: 0, video: 1, dco: 0, other: 0 } }, metrics: { activeAds: 1 } },
      ],
      pagination: { page: 1, limit: 20, total: 2, totalPages: 1 },
    });
    expect((await get('/workspace/media-mix?sortBy=video')).body.data[0].brandtracker.id).toBe(BT_A);
  });
});

describe('prices', () => {
  it('charges one credit per returned row on REST and GraphQL alike; a workspace without brandtrackers pays nothing', async () => {
    const before = (await charged()).length;
    const routes = ['/workspace/hooks', '/workspace/ad-copies', '/workspace/landing-pages', '/workspace/top-ads', '/workspace/scaling-ads', '/workspace/media-mix'];
    for (const path of routes) {
      const res = await get(`${path}?limit=2`);
      expect([path, res.headers.get('x-usage-cost')]).toEqual([path, String(res.body.data.length)]);
    }
    expect((await charged()).slice(before).map((record) => [record.field, record.rows, record.cost])).toEqual([
      ['Query.workspaceHooks', 2, 2], ['Query.workspaceAdCopies', 2, 2], ['Query.workspaceLandingPages', 2, 2],
      ['Query.workspaceTopAds', 2, 2], ['Query.workspaceScalingAds', 1, 1], ['Query.workspaceMediaMix', 2, 2],
    ]);

    const gql = await t.graphql('{ workspaceHooks(limit: 2) { data { hook { text } } } workspaceMediaMix(limit: 1) { data { metrics { activeAds } } } }', {}, key);
    expect(gql.body.data.workspaceHooks.data).toHaveLength(2);
    // The two fields of one document resolve concurrently: their records may land in either order.
    expect((await charged()).slice(-2).map((record) => [record.field, record.cost]).sort()).toEqual([['Query.workspaceHooks', 2], ['Query.workspaceMediaMix', 1]]);

    const empty = await t.newKey();
    for (const path of routes) {
      const res = await get(path, empty.apiKey);
      expect([path, res.status, res.body.data, res.headers.get('x-usage-cost')]).toEqual([path, 200, [], '0']);
    }
    const { _sum } = await t.db.prisma.usageRecord.aggregate({ where: { workspaceId: empty.workspaceId }, _sum: { cost: true } });
    expect(_sum.cost ?? 0).toBe(0);
  });

  it('answers the same rows on GraphQL as on REST', async () => {
    const rest = await get('/workspace/top-ads?limit=3');
    const gql = await t.graphql('{ workspaceTopAds(limit: 3) { data { brandtracker { id name } ad { id advertiser { name } } metrics { totalReach currentRank } } pagination { total } } }', {}, key);
    expect(gql.body.data.workspaceTopAds).toEqual({
      data: rest.body.data.map((row: { brandtracker: { id: string; name: string }; ad: { id: string; advertiser: { name: string } }; metrics: { totalReach: number; currentRank: number } }) => ({
        brandtracker: { id: row.brandtracker.id, name: row.brandtracker.name },
        ad: { id: row.ad.id, advertiser: { name: row.ad.advertiser.name } },
        metrics: { totalReach: row.metrics.totalReach, currentRank: row.metrics.currentRank },
      })),
      pagination: { total: rest.body.pagination.total },
    });
    expect(keyPaths(rest.body.pagination)).toEqual(keyPaths(PAGE_PAGINATION));
  });
});

describe('SQL statements per page', () => {
  it('do not grow with the number of rows or brandtrackers', async () => {
    await get('/workspace/hooks?limit=1'); // warm up: the key's last-use write happens on its first calls
    await new Promise((resolve) => setTimeout(resolve, 200));
    const sql = recordStatements();
    const statements = async (path: string) => {
      sql.clear();
      const res = await get(path);
      expect(res.status).toBe(200);
      // Left out: the key's lookup and last-use write (cached and throttled per key), the credit ledger's statements,
      // and the server's background sweep of idempotency keys.
      const counted = sql.own().filter((text) => !/credit_|usage_records|idempotency_keys|BEGIN|COMMIT/.test(text));
      return { rows: res.body.data.length, count: counted.length };
    };
    try {
      for (const [route, most] of [['hooks', 1], ['ad-copies', 1], ['landing-pages', 1], ['media-mix', 1], ['top-ads', 2], ['scaling-ads', 3]] as const) {
        const one = await statements(`/workspace/${route}?limit=1&minRankDelta=0`);
        const all = await statements(`/workspace/${route}?limit=100&minRankDelta=0`);
        expect(all.rows).toBeGreaterThan(one.rows);
        expect([route, one.count]).toEqual([route, most]);
        expect([route, all.count]).toEqual([route, most]);
        expect([route, (await statements(`/workspace/${route}?brandtrackerIds=${BT_A}&minRankDelta=0`)).count]).toEqual([route, most]);
      }
      const list = await statements('/brandtrackers?limit=1');
      const full = await statements('/brandtrackers?limit=100');
      expect(full.rows).toBe(2);
      expect([list.count, full.count]).toEqual([2, 2]);
    } finally {
      sql.restore();
    }
  });
});
