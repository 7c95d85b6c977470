import { describe, expect, it } from 'vitest';
import { expectNotFound, expectViolation } from '../support/assertions.js';
import { BT_A, BT_B, brandtrackerScenario, PAGE_A, PAGE_B } from '../brandtrackers/scenario.js';
import { useTrackingApp } from './support.js';

// The analytics frame through its smallest route: the live ads by format, EU-only, the snapshot day it resolves
// (latest, a date, one before any snapshot), and the 404 of a brandtracker the workspace does not track.

const app = useTrackingApp(brandtrackerScenario, { pages: [PAGE_A, PAGE_B] });

const { get } = app;
const daysSince = (date: string) => Math.round((Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate()) - Date.parse(`${date}T00:00:00Z`)) / 86_400_000);

describe('GET /v1/brandtrackers/{id}/media-mix', () => {
  it('counts the live ads by format, one per duplicate group, and sums them', async () => {
    const res = await get(`/brandtrackers/${BT_B}/media-mix`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ activeAds: 2, formatCount: { image: 1, video: 0, dco: 0, other: 1 } });
    expect(res.body.meta).toEqual({ requestedSnapshotDate: null, resolvedSnapshotDate: null, dataFreshnessLagDays: null, periodNote: 'Live active ads, one per duplicate group.' });
    const ofA = await get(`/brandtrackers/${BT_A}/media-mix`);
    expect(ofA.body.data).toEqual({ activeAds: 1, formatCount: { image: 0, video: 1, dco: 0, other: 0 } });
    const eu = await get(`/brandtrackers/${BT_B}/media-mix?euOnly=true`);
    expect(eu.body.data).toEqual({ activeAds: 1, formatCount: { image: 1, video: 0, dco: 0, other: 0 } });
  });

  it('reads the ads running on the resolved snapshot day', async () => {
    const latest = await get(`/brandtrackers/${BT_B}/media-mix?snapshotDate=latest`);
    expect(latest.body.meta).toMatchObject({ requestedSnapshotDate: 'latest', resolvedSnapshotDate: '2026-11-21', dataFreshnessLagDays: daysSince('2026-11-21') });
    expect(latest.body.data).toEqual({ activeAds: 1, formatCount: { image: 0, video: 0, dco: 0, other: 1 } });
    const onOrBefore = await get(`/brandtrackers/${BT_A}/media-mix?snapshotDate=2026-11-20`);
    expect(onOrBefore.body.meta).toMatchObject({ requestedSnapshotDate: '2026-11-20', resolvedSnapshotDate: '2026-11-20', dataFreshnessLagDays: 0 });
    expect(onOrBefore.body.data.activeAds).toBe(1);
    const later = await get(`/brandtrackers/${BT_A}/media-mix?snapshotDate=2026-11-23`);
    expect(later.body.meta).toMatchObject({ resolvedSnapshotDate: '2026-11-21', dataFreshnessLagDays: 2 });
    const before = await get(`/brandtrackers/${BT_B}/media-mix?snapshotDate=2026-11-20`);
    expect(before.body.meta).toMatchObject({ resolvedSnapshotDate: null, dataFreshnessLagDays: null });
    expect(before.body.data).toEqual({ activeAds: 0, formatCount: { image: 0, video: 0, dco: 0, other: 0 } });
  });

  it('rejects a malformed snapshot date and id, and answers 404 for a brandtracker the workspace does not track', async () => {
    expectViolation(await get(`/brandtrackers/${BT_A}/media-mix?snapshotDate=yesterday`), 'query-string.snapshotDate');
    expectViolation(await get(`/brandtrackers/${BT_A}/media-mix?snapshotDate=2026-02-30`), 'query-string.snapshotDate');
    expectViolation(await get('/brandtrackers/not-a-uuid/media-mix'), 'path.brandtrackerId');
    expectNotFound(await get(`/brandtrackers/${BT_A}/media-mix`, app.otherKey));
    await app.untracked(BT_B, async () => expect((await get(`/brandtrackers/${BT_B}/media-mix`)).status).toBe(404));
  });

  it('answers the same on GraphQL', async () => {
    const data = await app.graphql(`query($id: String!) { brandtrackerMediaMix(brandtrackerId: $id, euOnly: true) { data { activeAds formatCount { image video dco other } } meta { resolvedSnapshotDate } } }`, { id: BT_B });
    expect(data.brandtrackerMediaMix).toEqual({ data: { activeAds: 1, formatCount: { image: 1, video: 0, dco: 0, other: 0 } }, meta: { resolvedSnapshotDate: null } });
  });
});
