import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { expectNotFound, expectViolation } from '../support/assertions.js';
import { BT_A, PAGE_A } from '../brandtrackers/scenario.js';
import { useTrackingApp } from './support.js';
import { BATCH_BIG, BATCH_WINNER, PARTNER, testingScenario } from './testing-scenario.js';

// Testing batches of Nordic Glow (testing-scenario.ts): batches by start date, the 20-ad cap, the figures, every
// filter family, the snapshot day, pages of batches, bad input, and a brandtracker the workspace does not track.

const app = useTrackingApp(testingScenario, { pages: [PAGE_A] });

const get = (query = '', apiKey?: string) => app.get(`/brandtrackers/${BT_A}/testing${query}`, apiKey);
type Batch = { startDate: string; ads: { id: string }[]; adsReturned: number; adsTruncated: boolean; runningCount: number; isWinner: boolean; stats: { totalCount: number; activeCount: number; bestPerformerId: string } };
const dates = (body: { data: Batch[] }) => body.data.map((batch) => batch.startDate);
const counts = (body: { data: Batch[] }) => Object.fromEntries(body.data.map((batch) => [batch.startDate, batch.stats.totalCount]));
const today = () => new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10);

describe('GET /v1/brandtrackers/{id}/testing', () => {
  it('groups the ads with media by start date, newest first, at most 20 ads a batch, with the figures over all of them', async () => {
    const res = await get();
    expect(res.status).toBe(200);
    expect(dates(res.body)).toEqual([today(), BATCH_BIG, BATCH_WINNER, '2026-09-30', '2025-01-09']);
    expect(res.body.pagination).toEqual({ page: 1, limit: 25, total: 5, totalPages: 1 });
    const big: Batch & { stats: any; maxAdsPerBatch: number } = res.body.data[1];
    expect(big).toMatchObject({ adsReturned: 20, maxAdsPerBatch: 20, adsTruncated: true, runningCount: 12, isWinner: true });
    expect(big.ads[0].id).toBe('facebook_96023');
    expect(big.ads.map((ad) => ad.id)).not.toContain('facebook_96001');
    expect(big.stats).toEqual({
      reach: { min: 1100, avg: 2200, max: 3300, total: 50600 }, daysRunning: expect.objectContaining({ min: expect.any(Number) }),
      activeCount: 12, totalCount: 23, bestPerformerId: 'facebook_96023',
    });
    const winner = res.body.data[2];
    expect(winner.ads.map((ad: { id: string }) => ad.id)).toEqual(['facebook_97001', 'facebook_97002', 'facebook_97003']);
    expect(winner).toMatchObject({ adsReturned: 3, adsTruncated: false, runningCount: 1, isWinner: true, stats: { totalCount: 3, activeCount: 1 } });
    expect(res.body.data[0]).toMatchObject({ runningCount: 1, isWinner: false, stats: { totalCount: 2 } });
    expect(res.body.data[3]).toMatchObject({ isWinner: false, stats: { totalCount: 1, bestPerformerId: 'facebook_9001' } });
    expect(winner.ads[0]).toMatchObject({ id: 'facebook_97001', advertiser: { id: PAGE_A }, metrics: { reach: 900, estimatedSpend: 8 } });
  });

  it('counts what SQL counts: one batch per distinct start date of the group leads with media, every matching ad once', async () => {
    const [{ batches, ads }] = await app.t.db.prisma.$queryRaw<{ batches: number; ads: number }[]>`
      SELECT count(DISTINCT ("firstSeenAt" AT TIME ZONE 'UTC')::date)::int AS batches, count(*)::int AS ads
      FROM "ads" WHERE "advertiserId" = ${PAGE_A} AND "isGroupLead" AND "mediaUrl" IS NOT NULL`;
    const res = await get('?limit=50');
    expect(res.body.pagination.total).toBe(batches);
    expect(res.body.data.reduce((sum: number, batch: Batch) => sum + batch.stats.totalCount, 0)).toBe(ads);
  });

  it('pages over batches', async () => {
    const second = await get('?limit=2&page=2');
    expect(dates(second.body)).toEqual([BATCH_WINNER, '2026-09-30']);
    expect(second.body.pagination).toEqual({ page: 2, limit: 2, total: 5, totalPages: 3 });
    const past = await get('?limit=2&page=9');
    expect(past.body).toMatchObject({ data: [], pagination: { total: 5 } });
  });

  it('applies each filter family', async () => {
    const hash = createHash('md5').update('Sunscreen launch 1').digest('hex').slice(0, 12);
    const cases: [string, Record<string, number>][] = [
      ['?status=active', { [today()]: 1, [BATCH_BIG]: 12, [BATCH_WINNER]: 1, '2026-09-30': 1 }],
      ['?status=inactive&mediaType=video', { [BATCH_BIG]: 6 }],
      ['?mediaType=image', { [today()]: 2, [BATCH_BIG]: 11, [BATCH_WINNER]: 3, '2025-01-09': 1 }],
      ['?keywords=sunscreen', { [BATCH_BIG]: 4 }],
      ['?keywords=sunscreen,winner', { [today()]: 2, [BATCH_BIG]: 4, [BATCH_WINNER]: 3 }],
      ['?keywords=sunscreen&keywords=winner&keywordMode=all', {}],
      ['?minReach=3000', { [BATCH_BIG]: 4, '2026-09-30': 1 }],
      ['?minReach=500&reachPeriod=last7d', { '2026-09-30': 1 }],
      ['?minSpend=3000&maxSpend=3100&cpm=1000', { [BATCH_BIG]: 2 }],
      ['?minSpend=100&spendPeriod=last30d&cpm=1000', { '2026-09-30': 1 }],
      ['?hideLowReach=true&createdBefore=2026-10-10', { [BATCH_WINNER]: 3, '2026-09-30': 1 }],
      ['?createdAfter=2026-10-11', { [today()]: 2, [BATCH_BIG]: 23 }],
      ['?sex=men&startedAfter=2026-10-10&startedBefore=2026-11-01', { [BATCH_BIG]: 23, [BATCH_WINNER]: 3 }],
      ['?landingPages=shop.nordicglow.com', { [BATCH_BIG]: 5 }],
      ['?adLanguage=en', { '2026-09-30': 1 }],
      ['?cta=learn%20more', {}],
      [`?adCopyHashes=${hash}`, { [BATCH_BIG]: 1 }],
      ['?adCountries=DE', { [BATCH_BIG]: 10, '2026-09-30': 1 }],
      ['?excludeAdCountries=US,CA', { [today()]: 2, [BATCH_BIG]: 10, [BATCH_WINNER]: 3 }],
      ['?mainCountries=FR', { '2026-09-30': 1 }],
      ['?euOnly=true', { [BATCH_BIG]: 7, [BATCH_WINNER]: 1, '2026-09-30': 1 }],
      ['?partnership=true', { [BATCH_BIG]: 2 }],
      ['?partnership=false&startedAfter=2026-11-01&startedBefore=2026-11-01', { [BATCH_BIG]: 21 }],
      ['?partners=true', { [BATCH_BIG]: 2 }],
      ['?partners=false&partnership=false&startedAfter=2026-11-01&startedBefore=2026-11-01', { [BATCH_BIG]: 21 }],
      ['?minDaysRunning=9999', {}],
      ['?maxDuplicates=0', {}],
      ['?lastSeenBefore=2026-11-05', { [BATCH_BIG]: 11, [BATCH_WINNER]: 2, '2025-01-09': 1 }],
      [`?partnerIds=${PARTNER}`, { [BATCH_BIG]: 2 }],
      ['?linkedDomain=https://shop.nordicglow.com/anything', { [BATCH_BIG]: 5 }],
      ['?linkedDomain=nordicglow.com', { [BATCH_BIG]: 23, '2026-09-30': 1 }],
      ['?growthRank=rising', { '2026-09-30': 1 }],
      ['?growthRank=falling,stable', {}],
    ];
    for (const [query, expected] of cases) {
      const res = await get(query);
      expect(res.status, query).toBe(200);
      const want = Object.fromEntries(Object.entries(expected).filter(([, n]) => n > 0));
      expect(counts(res.body), query).toEqual(want);
    }
  });

  it('reads status at the snapshot day and leaves out ads started after it', async () => {
    const res = await get('?snapshotDate=2026-11-20');
    expect(dates(res.body)).toEqual([BATCH_BIG, BATCH_WINNER, '2026-09-30', '2025-01-09']);
    expect(res.body.data[0]).toMatchObject({ runningCount: 1, stats: { activeCount: 12, totalCount: 23 } });
    const active = await get('?snapshotDate=2026-11-20&status=active');
    expect(counts(active.body)).toEqual({ [BATCH_BIG]: 1, [BATCH_WINNER]: 1, '2026-09-30': 1 });
    expect(active.body.data[0].ads.map((ad: { id: string }) => ad.id)).toEqual(['facebook_96013']);
    const before = await get('?snapshotDate=2026-01-01&status=active');
    expect(before.body.data).toEqual([]);
  });

  it('sends three statements however many batches and ads', async () => {
    await get();
    const { res, statements } = await app.statementsOf(() => get('?limit=50'));
    expect(res.status).toBe(200);
    expect(statements.length).toBeLessThanOrEqual(3);
  });

  it('rejects bad values naming the parameter, and answers 404 for a brandtracker the workspace does not track', async () => {
    for (const [query, name] of [
      ['limit=51', 'limit'], ['limit=0', 'limit'], ['page=0', 'page'], ['status=paused', 'status'], ['mediaType=carousel', 'mediaType'],
      ['growthRank=up', 'growthRank'], ['adCountries=XX', 'adCountries'], ['excludeAdCountries=1', 'excludeAdCountries'], ['sex=other', 'sex'],
      ['linkedDomain=%21%21', 'linkedDomain'], ['adCopyHashes=xyz', 'adCopyHashes'], ['cpm=0', 'cpm'], ['keywordMode=some', 'keywordMode'],
      ['startedAfter=2026-13-01', 'startedAfter'], ['snapshotDate=yesterday', 'snapshotDate'], ['minReach=-1', 'minReach'], ['reachPeriod=last3d', 'reachPeriod'],
      ['partnership=maybe', 'partnership'], ['createdBefore=soon', 'createdBefore'],
      ['minDaysRunning=-1', 'minDaysRunning'], ['maxDaysRunning=1.5', 'maxDaysRunning'], ['minDuplicates=many', 'minDuplicates'], ['maxDuplicates=-2', 'maxDuplicates'],
      ['partners=maybe', 'partners'], ['partners=true&partnership=false', 'partners'], ['minSpendPerPage=-1', 'minSpendPerPage'], ['maxSpendPerPage=lots', 'maxSpendPerPage'],
      ['spendPerPagePeriod=last3d', 'spendPerPagePeriod'], ['minAge=5', 'minAge'], ['maxAge=70', 'maxAge'], ['minFacebookLikes=-1', 'minFacebookLikes'],
      ['maxFacebookLikes=1.5', 'maxFacebookLikes'], ['minInstagramFollowers=-1', 'minInstagramFollowers'], ['maxInstagramFollowers=x', 'maxInstagramFollowers'],
      ['minVideoDuration=-1', 'minVideoDuration'], ['maxVideoDuration=long', 'maxVideoDuration'], ['minDescriptionLength=-1', 'minDescriptionLength'],
      ['maxDescriptionLength=2.5', 'maxDescriptionLength'], ['lastSeenAfter=2026-13-01', 'lastSeenAfter'], ['lastSeenBefore=soon', 'lastSeenBefore'],
    ]) {
      expectViolation(await get(`?${query}`), `query-string.${name}`);
    }
    expectNotFound(await get('', app.otherKey));
    await app.untracked(BT_A, async () => expect((await get()).status).toBe(404));
    expect((await get()).status).toBe(200);
  });

  it('answers the same on GraphQL', async () => {
    const rest = await get('?limit=2&mediaType=image');
    const data = await app.graphql(`query($id: String!) { brandtrackerTesting(brandtrackerId: $id, limit: 2, mediaType: image) {
      data { startDate adsReturned adsTruncated runningCount isWinner ads { id } stats { totalCount bestPerformerId reach { total } } } pagination { total totalPages } } }`, { id: BT_A });
    expect(data.brandtrackerTesting.pagination).toEqual({ total: rest.body.pagination.total, totalPages: rest.body.pagination.totalPages });
    expect(data.brandtrackerTesting.data).toEqual(rest.body.data.map((batch: Batch & { stats: { reach: { total: number } } }) => ({
      startDate: batch.startDate, adsReturned: batch.adsReturned, adsTruncated: batch.adsTruncated, runningCount: batch.runningCount, isWinner: batch.isWinner,
      ads: batch.ads.map((ad) => ({ id: ad.id })), stats: { totalCount: batch.stats.totalCount, bestPerformerId: batch.stats.bestPerformerId, reach: { total: batch.stats.reach.total } },
    })));
  });
});
