import { describe, expect, it } from 'vitest';
import { BT_A, BT_B, PAGE_A, PAGE_B } from '../brandtrackers/scenario.js';
import { expectNotFound, expectViolation } from '../support/assertions.js';
import { insightsScenario } from './insights-scenario.js';
import { useTrackingApp } from './support.js';

// A brandtracker's EU demography: country, age and gender reach of its ads (EU ads by default), the accepted but
// ignored snapshotDate and timePeriod, a brand without data, bad parameters and the 404s.

const app = useTrackingApp(insightsScenario, { pages: [PAGE_A, PAGE_B] });

const { get } = app;

const EU = {
  hasData: true,
  countryDistribution: [{ countryCode: 'FR', reach: 1500 }, { countryCode: 'DE', reach: 300 }],
  ageDistribution: [{ ageRange: '18-24', reach: 1300 }, { ageRange: '25-34', reach: 500 }],
  genderDistribution: [{ gender: 'female', reach: 1300 }, { gender: 'male', reach: 500 }],
};

describe('GET /v1/brandtrackers/{id}/demography', () => {
  it("sums the EU ads' reach by country, age and gender", async () => {
    const res = await get(`/brandtrackers/${BT_A}/demography`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ requestId: res.body.requestId, data: EU });
  });

  it('reads every ad with euOnly=false', async () => {
    const res = await get(`/brandtrackers/${BT_A}/demography?euOnly=false`);
    expect(res.body.data).toEqual({
      hasData: true,
      countryDistribution: [...EU.countryDistribution, { countryCode: 'IT', reach: 50 }],
      ageDistribution: [...EU.ageDistribution, { ageRange: '35-44', reach: 50 }],
      genderDistribution: [...EU.genderDistribution, { gender: 'unknown', reach: 50 }],
    });
  });

  it('accepts snapshotDate and timePeriod without filtering', async () => {
    expect((await get(`/brandtrackers/${BT_A}/demography?snapshotDate=2020-01-01&timePeriod=last24h`)).body.data).toEqual(EU);
    expect((await get(`/brandtrackers/${BT_A}/demography?snapshotDate=latest`)).body.data).toEqual(EU);
  });

  it('answers hasData false for a brand without a breakdown', async () => {
    expect((await get(`/brandtrackers/${BT_B}/demography`)).body.data).toEqual({ hasData: false, countryDistribution: [], ageDistribution: [], genderDistribution: [] });
  });

  it('sums what SQL sums', async () => {
    const [{ reach }] = await app.t.db.prisma.$queryRaw<{ reach: number }[]>`
      SELECT sum(d."reach")::int AS reach FROM "ad_demography" d JOIN "ads" a ON a."id" = d."adId" WHERE a."advertiserId" = ${PAGE_A} AND a."isEuAd"`;
    const data = (await get(`/brandtrackers/${BT_A}/demography`)).body.data as typeof EU;
    for (const list of [data.countryDistribution, data.ageDistribution, data.genderDistribution]) {
      expect(list.reduce((sum, point) => sum + point.reach, 0)).toBe(reach);
    }
  });

  it('rejects bad parameters naming them, and answers 404 for a brandtracker the workspace does not track', async () => {
    expectViolation(await get(`/brandtrackers/${BT_A}/demography?snapshotDate=yesterday`), 'query-string.snapshotDate');
    expectViolation(await get(`/brandtrackers/${BT_A}/demography?timePeriod=forever`), 'query-string.timePeriod');
    expectViolation(await get(`/brandtrackers/${BT_A}/demography?euOnly=maybe`), 'query-string.euOnly');
    expectNotFound(await get(`/brandtrackers/${BT_A}/demography`, app.otherKey));
    await app.untracked(BT_A, async () => expect((await get(`/brandtrackers/${BT_A}/demography`)).status).toBe(404));
  });

  it('answers the same on GraphQL', async () => {
    const data = await app.graphql(`query($id: String!) { brandtrackerDemography(brandtrackerId: $id) {
      data { hasData countryDistribution { countryCode reach } ageDistribution { ageRange reach } genderDistribution { gender reach } } } }`, { id: BT_A });
    expect(data.brandtrackerDemography).toEqual({ data: EU });
  });
});
