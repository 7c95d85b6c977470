import { describe, expect, it } from 'vitest';
import { BT_A, PAGE_A } from '../brandtrackers/scenario.js';
import { expectNotFound, expectViolation } from '../support/assertions.js';
import { seriesScenario } from './series-scenario.js';
import { useTrackingApp } from './support.js';

// GET /brandtrackers/{id}/timeline and /timeline/metadata on the series scenario. Page A's timeline: its ads with
// media, one per duplicate group: 9302 (11-18, active), 9301 (11-10 … 11-15), 9303 (11-01, active), 9001 (09-30,
// active), 9003 (2025). 9002 has no media and is not its group's lead.

const app = useTrackingApp(seriesScenario, { pages: [PAGE_A] });

const timeline = (query = '', apiKey?: string) => app.get(`/brandtrackers/${BT_A}/timeline${query}`, apiKey);
const metadata = (query = '', apiKey?: string) => app.get(`/brandtrackers/${BT_A}/timeline/metadata${query}`, apiKey);
const ids = async (query: string) => ((await timeline(query)).body.data as { id: string }[]).map((ad) => ad.id.replace('facebook_', ''));
const today = () => new Date().toISOString().slice(0, 10);

describe('GET /v1/brandtrackers/{id}/timeline and /timeline/metadata', () => {
  it('lists the ads with media, one per duplicate group, newest first, with their count and date bounds', async () => {
    const res = await timeline();
    expect(res.status).toBe(200);
    expect(res.body.data.map((ad: { id: string }) => ad.id)).toEqual(['facebook_9302', 'facebook_9301', 'facebook_9303', 'facebook_9001', 'facebook_9003']);
    expect(res.body.pagination).toEqual({ page: 1, limit: 25, total: 5, totalPages: 1 });
    expect(res.body.data[0]).toMatchObject({ id: 'facebook_9302', status: 'active' });
    const meta = await metadata();
    expect(meta.status).toBe(200);
    expect(meta.body.data).toEqual({ totalCount: 5, earliestDate: '2025-01-09', latestDate: today() });
    expect(await ids('?sortBy=reach')).toEqual(['9001', '9303', '9302', '9301', '9003']);
    expect(await ids('?limit=2&page=2')).toEqual(['9303', '9001']);
  });

  it('reads status and the effective end at the snapshot day, and leaves out ads first seen after it', async () => {
    expect(await ids('?snapshotDate=2026-11-12')).toEqual(['9301', '9303', '9001', '9003']);
    expect(await ids('?snapshotDate=2026-11-12&status=active')).toEqual(['9301', '9303', '9001']);
    expect(await ids('?snapshotDate=2026-11-12&status=inactive')).toEqual(['9003']);
    expect(await ids('?status=inactive')).toEqual(['9301', '9003']);
    expect((await metadata('?snapshotDate=2026-11-12')).body.data).toEqual({ totalCount: 4, earliestDate: '2025-01-09', latestDate: '2026-11-12' });
    expect(await ids('?snapshotDate=2026-11-12&lastSeenAfter=2026-11-12')).toEqual(['9301', '9303', '9001']);
  });

  it('applies each filter family', async () => {
    expect(await ids('?euOnly=true')).toEqual(['9302', '9303', '9001']);
    expect(await ids('?partners=true')).toEqual(['9302']);
    expect(await ids('?partners=false')).toEqual(['9301', '9303', '9001', '9003']);
    expect(await ids('?partnerIds=1000000000000009')).toEqual(['9302']);
    expect(await ids('?keywords=gift')).toEqual(['9302', '9303']);
    expect(await ids('?keywords=gift,serum&keywordMode=all')).toEqual(['9303']); // its copy says gift, its headline serum
    expect(await ids('?mediaType=video')).toEqual(['9302', '9001']);
    expect(await ids('?lastSeenBefore=2026-11-20')).toEqual(['9301', '9003']);
    expect(await ids('?startedAfter=2026-11-01&startedBefore=2026-11-17')).toEqual(['9301', '9303']);
    expect(await ids('?createdAfter=2026-11-01')).toEqual(['9302', '9301', '9303']);
    expect(await ids(`?linkedDomain=${encodeURIComponent('https://www.nordicglow.com/products')}`)).toEqual(['9302', '9301', '9001']);
    expect(await ids('?adCountries=FR,-US')).toEqual(['9302', '9301', '9303']);
    expect(await ids('?minReach=900&maxReach=2500')).toEqual(['9302', '9303']);
    expect(await ids('?minSpend=20&cpm=10')).toEqual(['9303', '9001']);
    expect(await ids('?minDuplicates=2')).toEqual(['9303', '9001']);
  });

  it('counts in metadata what the timeline pages over, as SQL counts it', async () => {
    for (const query of ['', '?euOnly=true', '?status=active', '?keywords=glow', '?snapshotDate=2026-11-12&status=inactive']) {
      const [list, meta] = await Promise.all([timeline(query), metadata(query)]);
      expect(meta.body.data.totalCount).toBe(list.body.pagination.total);
    }
    const [{ n }] = await app.t.db.prisma.$queryRaw<{ n: number }[]>`
      SELECT count(*)::int AS n FROM "ads" WHERE "advertiserId" = ${PAGE_A} AND "isGroupLead" AND "mediaUrl" IS NOT NULL AND "status" = 'active'`;
    expect((await metadata('?status=active')).body.data.totalCount).toBe(n);
  });

  it('answers a page in at most four statements (the frame, the ids and their count, the ads)', async () => {
    const { res, statements } = await app.statementsOf(() => timeline('?status=active'));
    expect(res.status).toBe(200);
    expect(statements.length).toBeLessThanOrEqual(4);
  });

  it('rejects bad parameters naming them, and answers 404 for another workspace', async () => {
    expectViolation(await timeline('?status=paused'), 'query-string.status');
    expectViolation(await timeline('?sortBy=oldest'), 'query-string.sortBy');
    expectViolation(await timeline('?limit=101'), 'query-string.limit');
    expectViolation(await metadata('?adCountries=FR,XX'), 'query-string.adCountries');
    expectViolation(await metadata('?linkedDomain=not%20a%20domain'), 'query-string.linkedDomain');
    expectViolation(await metadata('?adCopyHashes=xyz'), 'query-string.adCopyHashes');
    expectViolation(await metadata('?minAge=5'), 'query-string.minAge');
    expectViolation(await metadata('?growthRank=up'), 'query-string.growthRank');
    expectViolation(await metadata('?snapshotDate=soon'), 'query-string.snapshotDate');
    for (const res of [await timeline('', app.otherKey), await metadata('', app.otherKey)]) expectNotFound(res);
  });

  it('answers the same on GraphQL', async () => {
    const data = await app.graphql(`query($id: String!) {
      brandtrackerTimeline(brandtrackerId: $id, euOnly: true, sortBy: reach) { data { id } pagination { total } }
      brandtrackerTimelineMetadata(brandtrackerId: $id, euOnly: true) { data { totalCount earliestDate } } }`, { id: BT_A });
    expect(data.brandtrackerTimeline).toEqual({ data: [{ id: 'facebook_9001' }, { id: 'facebook_9303' }, { id: 'facebook_9302' }], pagination: { total: 3 } });
    expect(data.brandtrackerTimelineMetadata).toEqual({ data: { totalCount: 3, earliestDate: '2026-09-30' } });
  });
});
