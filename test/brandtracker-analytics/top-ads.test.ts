import { describe, expect, it } from 'vitest';
import { BT_A, BT_B, brandtrackerScenario, PAGE_A, PAGE_B } from '../brandtrackers/scenario.js';
import type { HttpResult } from '../support/app.js';
import { expectNotFound, expectViolation } from '../support/assertions.js';
import { AD_SUMMARY, AD_SUMMARY_GROUPED, keyPaths } from '../support/shapes.js';
import { useTrackingApp } from './support.js';

// A brandtracker's current rankings: its ads, one per duplicate group, as { ad, metrics }; the activity filter,
// EU-only, sorts, pages, the deprecated period and snapshotDate (accepted, ignored), and the 404s.

const app = useTrackingApp(brandtrackerScenario, { pages: [PAGE_A, PAGE_B] });

const { get } = app;
const ids = (res: HttpResult) => res.body.data.map((row: { ad: { id: string } }) => row.ad.id);
const METRICS = { totalReach: 1, duplicateCount: 1, daysRunning: 1, currentRank: 1 };

describe('GET /v1/brandtrackers/{id}/top-ads', () => {
  it('ranks the active ads of the brand, one per duplicate group, as { ad, metrics }', async () => {
    const res = await get(`/brandtrackers/${BT_A}/top-ads`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['requestId', 'data', 'pagination']);
    expect(keyPaths(res.body.data[0])).toEqual(keyPaths({ ad: AD_SUMMARY_GROUPED, metrics: METRICS }));
    expect(res.body.data).toHaveLength(1);
    expect(res.body.data[0].ad).toMatchObject({ id: 'facebook_9001', collationId: 'col_a', metrics: { estimatedSpend: 45 } });
    expect(res.body.data[0].metrics).toMatchObject({ totalReach: 8000, duplicateCount: 2, currentRank: 1 });
    expect(res.body.pagination).toEqual({ page: 1, limit: 20, total: 1, totalPages: 1 });
    const ofB = await get(`/brandtrackers/${BT_B}/top-ads`);
    expect(ids(ofB)).toEqual(['facebook_9004', 'facebook_9101']);
    expect(keyPaths(ofB.body.data[0])).toEqual(keyPaths({ ad: AD_SUMMARY, metrics: METRICS }));
  });

  it('filters by activity and EU, sorts and pages', async () => {
    expect(ids(await get(`/brandtrackers/${BT_A}/top-ads?status=all`))).toEqual(['facebook_9001', 'facebook_9003']);
    expect(ids(await get(`/brandtrackers/${BT_A}/top-ads?status=inactive`))).toEqual(['facebook_9003']);
    expect(ids(await get(`/brandtrackers/${BT_A}/top-ads?includeInactive=true`))).toEqual(['facebook_9001', 'facebook_9003']);
    // status takes precedence over the deprecated includeInactive.
    expect(ids(await get(`/brandtrackers/${BT_A}/top-ads?includeInactive=true&status=active`))).toEqual(['facebook_9001']);
    expect(ids(await get(`/brandtrackers/${BT_B}/top-ads?euOnly=true`))).toEqual(['facebook_9101']);
    expect(ids(await get(`/brandtrackers/${BT_B}/top-ads?sortBy=daysRunning`))).toEqual(['facebook_9004', 'facebook_9101']);
    const second = await get(`/brandtrackers/${BT_B}/top-ads?sortBy=reach&limit=1&page=2`);
    expect(ids(second)).toEqual(['facebook_9101']);
    expect(second.body.pagination).toEqual({ page: 2, limit: 1, total: 2, totalPages: 2 });
    const past = await get(`/brandtrackers/${BT_B}/top-ads?page=3&limit=1`);
    expect(past.body).toEqual({ requestId: past.body.requestId, data: [], pagination: { page: 3, limit: 1, total: 2, totalPages: 2 }, meta: { reason: 'no_matching_ads' } });
  });

  it('counts what SQL counts: the active group leads of the page', async () => {
    const [{ n }] = await app.t.db.prisma.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM "ads" WHERE "advertiserId" = ${PAGE_B} AND "isGroupLead" AND "status" = 'active'`;
    expect((await get(`/brandtrackers/${BT_B}/top-ads`)).body.pagination.total).toBe(n);
  });

  it('accepts and ignores period and snapshotDate', async () => {
    const plain = await get(`/brandtrackers/${BT_B}/top-ads`);
    const deprecated = await get(`/brandtrackers/${BT_B}/top-ads?period=today&snapshotDate=2020-01-01`);
    expect(deprecated.body.data).toEqual(plain.body.data);
  });

  it("honours facebookPageId and allFacebookPages: the brandtracker's one page, or a 400 for another page", async () => {
    const plain = await get(`/brandtrackers/${BT_B}/top-ads?status=all`);
    expect(ids(plain)).toHaveLength(2);
    for (const query of [`facebookPageId=${PAGE_B}`, `facebookPageId=%20${PAGE_B}%20`, 'allFacebookPages=true', 'allFacebookPages=false', `facebookPageId=${PAGE_B}&allFacebookPages=false`]) {
      const res = await get(`/brandtrackers/${BT_B}/top-ads?status=all&${query}`);
      expect(res.status, query).toBe(200);
      expect(res.body.data, query).toEqual(plain.body.data);
    }
    const expected = ["facebookPageId must be the brandtracker's Facebook page"];
    expectViolation(await get(`/brandtrackers/${BT_B}/top-ads?facebookPageId=${PAGE_A}`), 'query-string.facebookPageId', expected);
    expectViolation(await get(`/brandtrackers/${BT_B}/top-ads?facebookPageId=9999999999999999&allFacebookPages=false`), 'query-string.facebookPageId', expected);
    expectViolation(await get(`/brandtrackers/${BT_B}/top-ads?facebookPageId=${PAGE_B}&allFacebookPages=true`), 'query-string.allFacebookPages', ['allFacebookPages cannot be combined with facebookPageId']);
    expectViolation(await get(`/brandtrackers/${BT_B}/top-ads?facebookPageId=%20%20`), 'query-string.facebookPageId');
    expectViolation(await get(`/brandtrackers/${BT_B}/top-ads?facebookPageId=${'1'.repeat(129)}`), 'query-string.facebookPageId');
    expectViolation(await get(`/brandtrackers/${BT_B}/top-ads?allFacebookPages=maybe`), 'query-string.allFacebookPages');
    // The brandtracker is looked up first: another workspace's is a 404 whatever the page.
    expectNotFound(await get(`/brandtrackers/${BT_B}/top-ads?facebookPageId=${PAGE_A}`, app.otherKey));
    const res = await app.t.graphql(`query($id: String!, $page: String) { brandtrackerTopAds(brandtrackerId: $id, facebookPageId: $page) { data { ad { id } } } }`, { id: BT_B, page: PAGE_A }, app.key);
    expect(res.body.errors[0].extensions).toMatchObject({ code: 'validation_error', details: { validationErrors: [{ field: 'facebookPageId', expected }] } });
    const data = await app.graphql(`query($id: String!, $page: String) { brandtrackerTopAds(brandtrackerId: $id, facebookPageId: $page, status: all) { data { ad { id } } } }`, { id: BT_B, page: PAGE_B });
    expect(data.brandtrackerTopAds.data.map((row: { ad: { id: string } }) => row.ad.id)).toEqual(ids(plain));
  });

  it('rejects bad parameters naming them, and answers 404 for a brandtracker the workspace does not track', async () => {
    expectViolation(await get(`/brandtrackers/${BT_A}/top-ads?limit=51`), 'query-string.limit');
    expectViolation(await get(`/brandtrackers/${BT_A}/top-ads?page=0`), 'query-string.page');
    expectViolation(await get(`/brandtrackers/${BT_A}/top-ads?sortBy=rank`), 'query-string.sortBy');
    expectViolation(await get(`/brandtrackers/${BT_A}/top-ads?status=paused`), 'query-string.status');
    expectViolation(await get(`/brandtrackers/${BT_A}/top-ads?period=forever`), 'query-string.period');
    expectViolation(await get(`/brandtrackers/${BT_A}/top-ads?snapshotDate=${'9'.repeat(33)}`), 'query-string.snapshotDate');
    expectViolation(await get(`/brandtrackers/${BT_A}/top-ads?snapshotDate=yesterday`), 'query-string.snapshotDate');
    expectNotFound(await get(`/brandtrackers/${BT_A}/top-ads`, app.otherKey));
    await app.untracked(BT_B, async () => expect((await get(`/brandtrackers/${BT_B}/top-ads`)).status).toBe(404));
  });

  it('sends the same statements whatever the page size', async () => {
    await get(`/brandtrackers/${BT_B}/top-ads`);
    const count = async (limit: number, rows: number) => {
      const { res, statements } = await app.statementsOf(() => get(`/brandtrackers/${BT_B}/top-ads?limit=${limit}`));
      expect(ids(res)).toHaveLength(rows);
      return statements.length;
    };
    const one = await count(1, 1);
    expect(one).toBeLessThanOrEqual(3);
    expect(await count(2, 2)).toBe(one);
  });

  it('answers the same on GraphQL', async () => {
    const rest = await get(`/brandtrackers/${BT_B}/top-ads?euOnly=true`);
    const data = await app.graphql(`query($id: String!) { brandtrackerTopAds(brandtrackerId: $id, euOnly: true) {
      data { ad { id } metrics { totalReach duplicateCount daysRunning currentRank } } pagination { page limit total totalPages } meta { reason } } }`, { id: BT_B });
    expect(data.brandtrackerTopAds).toEqual({
      data: rest.body.data.map((row: { ad: { id: string }; metrics: object }) => ({ ad: { id: row.ad.id }, metrics: row.metrics })),
      pagination: rest.body.pagination,
      meta: null,
    });
  });
});
