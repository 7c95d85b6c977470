import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureDemo } from '../../src/data/demo.js';
import { createTestApp, type TestApp } from '../support/app.js';

// On first start the demo workspace tracks a handful of the market's brands in two folders and has saved items,
// so that the brandtracker (demography included), workspace analytics, boards and favorites routes answer with rows
// for a new user.

let t: TestApp;
let key: string;
beforeAll(async () => {
  t = await createTestApp(undefined, { market: { scale: 'tiny', seed: 42 } });
  key = (await ensureDemo(t.db.prisma, t.db.pool, () => {}))!;
});
afterAll(() => t?.close());

const get = (path: string) => t.rest('GET', path, { key });

describe('the demo workspace', () => {
  it('tracks six loaded brands: three and two in two folders, one at the root', async () => {
    const folders = await get('/brandtrackers/folders');
    expect(folders.body.data.map((f: { name: string; rank: number; brandtrackerCount: number }) => [f.name, f.rank, f.brandtrackerCount])).toEqual([
      ['Competitors', 1, 3],
      ['Inspiration', 2, 2],
    ]);
    const list = await get('/brandtrackers');
    expect(list.body.pagination.total).toBe(6);
    expect(list.body.data.filter((b: { folder: unknown }) => b.folder === null)).toHaveLength(1);
    expect(list.body.data.every((b: { status: { isLoaded: boolean }; advertising: { activeAds: number } }) => b.status.isLoaded && b.advertising.activeAds > 0)).toBe(true);
    const detail = await get(`/brandtrackers/${list.body.data[0].id}`);
    expect(detail.body.data.statistics.liveAdCount.activeCount).toBeGreaterThan(0);
    expect((await get(`/brandtrackers/${list.body.data[0].id}/snapshots`)).body.data.snapshots.length).toBeGreaterThan(0);
  });

  it('answers every workspace analytics route with rows', async () => {
    for (const route of ['top-ads', 'hooks', 'ad-copies', 'landing-pages', 'media-mix', 'scaling-ads']) {
      const res = await get(`/workspace/${route}`);
      expect([route, res.status, res.body.data.length > 0]).toEqual([route, 200, true]);
    }
  });

  it("answers the demography route of every tracked brand with its EU ads' breakdown", async () => {
    const list = await get('/brandtrackers');
    for (const { id } of list.body.data as { id: string }[]) {
      const res = await get(`/brandtrackers/${id}/demography`);
      expect(res.status).toBe(200);
      const data = res.body.data as Record<'countryDistribution' | 'ageDistribution' | 'genderDistribution', { reach: number }[]> & { hasData: boolean };
      expect([id, data.hasData]).toEqual([id, true]);
      const [{ reach }] = await t.db.prisma.$queryRaw<{ reach: number }[]>`
        SELECT sum(a."reach")::float8 AS reach FROM "ads" a JOIN "brandtrackers" b ON b."facebookPageId" = a."advertiserId"
        WHERE b."id" = ${id}::uuid AND a."isEuAd"`;
      for (const points of [data.countryDistribution, data.ageDistribution, data.genderDistribution]) {
        expect(points.length).toBeGreaterThan(0);
        expect(points.reduce((sum, point) => sum + point.reach, 0)).toBe(reach);
      }
    }
  });

  it('has saved items on boards and in the three favorites families', async () => {
    const boards = await get('/boards');
    expect(boards.status).toBe(200);
    const names = boards.body.data.map((board: { name: string }) => board.name);
    expect(names).toEqual(expect.arrayContaining(['Competitor research', 'Swipe file']));
    const research = boards.body.data.find((board: { name: string }) => board.name === 'Competitor research');
    const items = await get(`/boards/${research.id}/items`);
    expect(items.status).toBe(200);
    const types = new Set(items.body.data.map((item: { itemType?: string; type?: string }) => item.itemType ?? item.type));
    expect(types.size).toBeGreaterThanOrEqual(3);
    for (const family of ['ads', 'shops', 'emails']) {
      const res = await get(`/favorites/${family}?scope=workspace`);
      expect([family, res.status, res.body.data.length > 0]).toEqual([family, 200, true]);
    }
    expect((await get('/favorites/ads/folders?scope=workspace')).body.data.map((folder: { name: string }) => folder.name)).toContain('Swipe file');
  });
});
