import { describe, expect, it } from 'vitest';
import { expectNotFound, expectViolation, withoutRequestId } from '../support/assertions.js';
import { BT_A, BT_B, PAGE_A, PAGE_B } from '../brandtrackers/scenario.js';
import { contentScenario } from './content-scenario.js';
import { useTrackingApp } from './support.js';

// GET /v1/brandtrackers/{id}/hooks, /transcripts, /headlines and /ad-copies on the content scenario. Page A's live
// ads (every ad, duplicates included): 9001 and 9002 (EU), 9501 (2 days old), 9503 (10 days old); on the snapshot
// day 2026-11-20: 9001 and 9503; 2026-11-21 (latest): 9001.

const app = useTrackingApp(contentScenario, { pages: [PAGE_A, PAGE_B] });

const { get } = app;
const rows = async (path: string, query = '') => {
  const res = await get(`/brandtrackers/${BT_A}/${path}${query ? `?${query}` : ''}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
};
const keys = async (path: string, field: string, query = '') => (await rows(path, query)).data.map((row: Record<string, unknown>) => [row[field], row.usageCount]);

describe('GET /v1/brandtrackers/{id}/hooks', () => {
  it('groups the live ads by hook with usage figures, the sample ad of the highest reach, and the snapshot meta', async () => {
    const body = await rows('hooks');
    expect(Object.keys(body).sort()).toEqual(['data', 'meta', 'pagination', 'requestId']);
    expect(body.pagination).toEqual({ page: 1, limit: 20, total: 2, totalPages: 1 });
    expect(body.meta).toEqual({ requestedSnapshotDate: null, resolvedSnapshotDate: null, dataFreshnessLagDays: null, periodNote: 'Live active ads.' });
    expect(body.data[0]).toMatchObject({
      hook: 'Meet the glow serum.', usageCount: 3, totalImpressions: 10000, firstUsedAt: '2026-09-30T00:00:00.000Z',
      sampleAd: { adId: 'facebook_9001', mediaUrl: 'http://api.test/media/ads/facebook_9001.mp4', thumbnailUrl: 'http://api.test/media/ads/facebook_9001-thumb.jpg', fullText: 'Meet the glow serum. Free shipping.' },
    });
    expect(body.data[1]).toMatchObject({ hook: 'Creators love it.', usageCount: 1, totalImpressions: 900, longestRunning: expect.any(Number), lastUsedAt: expect.any(String) });
    const [{ usage }] = await app.t.db.prisma.$queryRaw<{ usage: number }[]>`
      SELECT count(*)::int AS usage FROM "ads" a JOIN "ad_hooks" h ON h."adId" = a."id"
      WHERE a."advertiserId" = ${PAGE_A} AND a."status" = 'active' AND h."text" = 'Meet the glow serum.'`;
    expect(body.data[0].usageCount).toBe(usage);
  });

  it('reads the window, EU-only and the snapshot day', async () => {
    expect(await keys('hooks', 'hook', 'euOnly=true')).toEqual([['Meet the glow serum.', 2]]);
    expect(await keys('hooks', 'hook', 'timePeriod=last7d')).toEqual([['Creators love it.', 1]]);
    expect(await keys('hooks', 'hook', 'timePeriod=last30d')).toEqual([['Creators love it.', 1], ['Meet the glow serum.', 1]]);
    const snapshot = await rows('hooks', 'snapshotDate=2026-11-20');
    expect(snapshot.meta).toEqual({ requestedSnapshotDate: '2026-11-20', resolvedSnapshotDate: '2026-11-20', dataFreshnessLagDays: 0, periodNote: 'Ads with a reach row on 2026-11-20.' });
    expect(snapshot.data.map((row: { hook: string; usageCount: number }) => [row.hook, row.usageCount])).toEqual([['Meet the glow serum.', 2]]);
    expect(await keys('hooks', 'hook', 'snapshotDate=latest')).toEqual([['Meet the glow serum.', 1]]);
    // A window with a snapshot day ends at that day's end: 9001 and 9002 are in the 90 days before 2026-11-21, 9501
    // (first seen two days ago, after it) is not; 9503's copy is not checked, as whether it is in depends on today.
    const before = await rows('ad-copies', 'snapshotDate=2026-11-20&timePeriod=last3m');
    expect(before.meta.periodNote).toBe('Ads first seen in the 90 days before the end of 2026-11-20.');
    const copies = before.data.map((row: { adCopy: string; usageCount: number }) => [row.adCopy, row.usageCount]);
    expect(copies).toContainEqual(['Summer serum sale with free shipping', 2]);
    expect(copies).not.toContainEqual(['Creator glow routine', 1]);
    expect(await keys('ad-copies', 'adCopy', 'timePeriod=last3m')).toContainEqual(['Creator glow routine', 1]);
    const none = await rows('hooks', 'snapshotDate=2026-11-01');
    expect(none.meta).toMatchObject({ resolvedSnapshotDate: null });
    expect(none.data).toEqual([]);
  });

  it('sorts by each figure in either order', async () => {
    expect(await keys('hooks', 'hook', 'sortBy=totalImpressions&order=asc')).toEqual([['Creators love it.', 1], ['Meet the glow serum.', 3]]);
    expect(await keys('hooks', 'hook', 'sortBy=firstUsedAt')).toEqual([['Creators love it.', 1], ['Meet the glow serum.', 3]]);
    expect(await keys('hooks', 'hook', 'sortBy=longestRunning')).toEqual([['Meet the glow serum.', 3], ['Creators love it.', 1]]);
    expect((await keys('hooks', 'hook', 'sortBy=lastUsedAt'))).toHaveLength(2);
  });
});

describe('GET /v1/brandtrackers/{id}/transcripts', () => {
  it('groups the live video ads by transcript', async () => {
    const body = await rows('transcripts');
    expect(body.data).toEqual([
      {
        fullText: 'Meet the glow serum. Free shipping.', usageCount: 2, longestRunning: expect.any(Number), totalImpressions: 5900,
        firstUsedAt: '2026-09-30T00:00:00.000Z', lastUsedAt: expect.any(String),
        sampleAd: { adId: 'facebook_9001', mediaUrl: 'http://api.test/media/ads/facebook_9001.mp4', thumbnailUrl: 'http://api.test/media/ads/facebook_9001-thumb.jpg' },
      },
      expect.objectContaining({ fullText: 'Hallo glow.', usageCount: 1, totalImpressions: 2000, sampleAd: { adId: 'facebook_9503', mediaUrl: 'http://api.test/media/ads/facebook_9503.mp4', thumbnailUrl: null } }),
    ]);
    expect(await keys('transcripts', 'fullText', 'sortBy=totalImpressions&order=asc')).toEqual([['Hallo glow.', 1], ['Meet the glow serum. Free shipping.', 2]]);
    expect(await keys('transcripts', 'fullText', 'timePeriod=last3d')).toEqual([['Meet the glow serum. Free shipping.', 1]]);
    expect(await keys('transcripts', 'fullText', 'euOnly=true')).toEqual([['Meet the glow serum. Free shipping.', 1]]);
  });
});

describe('GET /v1/brandtrackers/{id}/headlines and /ad-copies', () => {
  it('group the ads by title and by copy, paged', async () => {
    const headlines = await rows('headlines');
    expect(headlines.data).toEqual([{ headline: 'Glow serum', usageCount: 3, longestRunning: expect.any(Number) }]);
    expect(await keys('headlines', 'headline', 'timePeriod=last7d')).toEqual([['Glow serum', 1]]);
    // The year before the end of 2026-11-20: 9001, 9002 and 9502 (first seen 2026-06-01), not 9501 (after it).
    expect(await keys('headlines', 'headline', 'snapshotDate=2026-11-20&timePeriod=last1y')).toEqual([['Glow serum', 2], ['Winter', 1]]);
    expect(await keys('headlines', 'headline', 'snapshotDate=2026-11-20&timePeriod=last1y&order=asc')).toEqual([['Winter', 1], ['Glow serum', 2]]);
    expect(await keys('ad-copies', 'adCopy')).toEqual([['Summer serum sale with free shipping', 2], ['Creator glow routine', 1], ['Glow up', 1]]);
    const second = await rows('ad-copies', 'limit=1&page=2');
    expect(second.data).toEqual([{ adCopy: 'Creator glow routine', usageCount: 1, longestRunning: expect.any(Number) }]);
    expect(second.pagination).toEqual({ page: 2, limit: 1, total: 3, totalPages: 3 });
    expect(await keys('ad-copies', 'adCopy', 'sortBy=longestRunning')).toEqual([['Summer serum sale with free shipping', 2], ['Glow up', 1], ['Creator glow routine', 1]]);
    expect((await rows('ad-copies', 'page=9')).data).toEqual([]);
  });
});

describe('bounds, enums and access', () => {
  it('rejects bad values naming the field', async () => {
    const bad = async (path: string, query: string, field: string) => expectViolation(await get(`/brandtrackers/${BT_A}/${path}?${query}`), `query-string.${field}`);
    await bad('hooks', 'limit=51', 'limit');
    await bad('transcripts', 'page=0', 'page');
    await bad('headlines', 'sortBy=totalImpressions', 'sortBy');
    await bad('ad-copies', 'timePeriod=last2d', 'timePeriod');
    await bad('hooks', 'order=up', 'order');
    await bad('transcripts', 'snapshotDate=2026-02-30', 'snapshotDate');
    await bad('headlines', 'euOnly=maybe', 'euOnly');
  });

  it('answers 404 for another workspace and for an inactive link', async () => {
    for (const path of ['hooks', 'transcripts', 'headlines', 'ad-copies']) expectNotFound(await get(`/brandtrackers/${BT_A}/${path}`, app.otherKey));
    await app.untracked(BT_B, async () => {
      for (const path of ['hooks', 'transcripts', 'headlines', 'ad-copies']) expect((await get(`/brandtrackers/${BT_B}/${path}`)).status).toBe(404);
    });
  });

  it('sends two statements: the frame and the page of groups', async () => {
    await get(`/brandtrackers/${BT_A}/hooks`);
    for (const path of ['hooks', 'transcripts', 'headlines', 'ad-copies']) {
      const { res, statements } = await app.statementsOf(() => get(`/brandtrackers/${BT_A}/${path}?timePeriod=last1y`));
      expect(res.status).toBe(200);
      expect(statements, path).toHaveLength(2);
    }
  });

  it('answers the same on GraphQL', async () => {
    const rest = withoutRequestId((await rows('hooks', 'sortBy=totalImpressions&order=asc&snapshotDate=latest')));
    const data = await app.graphql(`query($id: String!) {
      brandtrackerHooks(brandtrackerId: $id, sortBy: totalImpressions, order: asc, snapshotDate: "latest") {
        data { hook usageCount longestRunning totalImpressions firstUsedAt lastUsedAt sampleAd { adId mediaUrl thumbnailUrl fullText } }
        pagination { page limit total totalPages }
        meta { requestedSnapshotDate resolvedSnapshotDate dataFreshnessLagDays periodNote }
      }
      brandtrackerHeadlines(brandtrackerId: $id, timePeriod: last1y, snapshotDate: "2026-11-20") { data { headline usageCount } }
    }`, { id: BT_A });
    expect(data.brandtrackerHooks).toEqual(rest);
    expect(data.brandtrackerHeadlines.data).toEqual([{ headline: 'Glow serum', usageCount: 2 }, { headline: 'Winter', usageCount: 1 }]);
  });
});
