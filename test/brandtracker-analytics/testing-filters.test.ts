import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureDemo } from '../../src/data/demo.js';
import { createTestApp, type TestApp } from '../support/app.js';

// GET /v1/brandtrackers/{id}/testing's bounds on the demo market (the tiny synthetic market and the demo workspace),
// on the demo brand with the most testing ads: each bound changes the batches, and every ad returned satisfies it.
// The bounds are read from the brand's own ads, so they cut through its data whatever the market's seed draws.

type Ad = {
  id: string; status: string; daysRunning: number;
  metrics: { duplicates: number }; audience: { ageMin: number | null; ageMax: number | null };
  advertiser: { facebookLikes: number; instagramFollowers: number; totalReach: number; reach30d: number };
  flags: { hasPartnerBadge: boolean };
};
type Batch = { startDate: string; ads: Ad[]; stats: { totalCount: number } };
/** What the database holds of an ad beyond its summary. */
type Row = { id: string; videoDuration: number | null; descriptionLength: number; endDay: string };
type Result = { batches: Batch[]; ads: Ad[]; signature: string };

let t: TestApp;
let key = '';
let brandtrackerId = '';
let all: Result;
const rows = new Map<string, Row>();

const get = (path: string) => t.rest('GET', path, { key });

/** Every batch of the route with `query`, page after page, and the ads returned. */
async function testing(query: string, id = brandtrackerId): Promise<Result> {
  const batches: Batch[] = [];
  for (let page = 1, pages = 1; page <= pages; page++) {
    const res = await get(`/brandtrackers/${id}/testing?limit=50&page=${page}${query ? `&${query}` : ''}`);
    expect(res.status, `${query}: ${JSON.stringify(res.body)}`).toBe(200);
    batches.push(...res.body.data);
    pages = res.body.pagination.totalPages;
  }
  return { batches, ads: batches.flatMap((batch) => batch.ads), signature: JSON.stringify(batches.map((batch) => [batch.startDate, batch.stats.totalCount])) };
}

/** A bound that leaves out some of the values: the middle one, or past the single one. */
function cut(values: (number | string | null)[], side: 'min' | 'max'): number | string {
  const distinct = [...new Set(values.filter((value) => value !== null))].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  expect(distinct.length).toBeGreaterThan(0);
  if (distinct.length === 1) {
    const [only] = distinct;
    expect(typeof only).toBe('number');
    return side === 'min' ? (only as number) + 1 : (only as number) - 1;
  }
  return side === 'min' ? distinct[Math.floor(distinct.length / 2)] : distinct[Math.floor((distinct.length - 1) / 2)];
}

const row = (ad: Ad) => rows.get(ad.id)!;
const spendOf = (reach: number) => Math.round((reach * 9) / 1000);

/** A filter: the parameter, the value it bounds (null: none, never matching), and which side it bounds. */
const BOUNDS: [string, (ad: Ad) => number | string | null, 'min' | 'max'][] = [
  ['minDaysRunning', (ad) => ad.daysRunning, 'min'],
  ['maxDaysRunning', (ad) => ad.daysRunning, 'max'],
  ['minDuplicates', (ad) => ad.metrics.duplicates, 'min'],
  ['maxDuplicates', (ad) => ad.metrics.duplicates, 'max'],
  // The age bounds overlap the targeted range: minAge against its upper end, maxAge against its lower end.
  ['minAge', (ad) => ad.audience.ageMax ?? 65, 'min'],
  ['maxAge', (ad) => ad.audience.ageMin ?? 13, 'max'],
  ['minFacebookLikes', (ad) => ad.advertiser.facebookLikes, 'min'],
  ['maxFacebookLikes', (ad) => ad.advertiser.facebookLikes, 'max'],
  ['minInstagramFollowers', (ad) => ad.advertiser.instagramFollowers, 'min'],
  ['maxInstagramFollowers', (ad) => ad.advertiser.instagramFollowers, 'max'],
  ['minSpendPerPage', (ad) => spendOf(ad.advertiser.totalReach), 'min'],
  ['maxSpendPerPage', (ad) => spendOf(ad.advertiser.totalReach), 'max'],
  ['minVideoDuration', (ad) => row(ad).videoDuration, 'min'],
  ['maxVideoDuration', (ad) => row(ad).videoDuration, 'max'],
  ['minDescriptionLength', (ad) => row(ad).descriptionLength, 'min'],
  ['maxDescriptionLength', (ad) => row(ad).descriptionLength, 'max'],
  ['lastSeenAfter', (ad) => row(ad).endDay, 'min'],
  ['lastSeenBefore', (ad) => row(ad).endDay, 'max'],
];

beforeAll(async () => {
  t = await createTestApp(undefined, { market: { scale: 'tiny', seed: 42 } });
  key = (await ensureDemo(t.db.prisma, t.db.pool, () => {}))!;
  const list = await get('/brandtrackers?limit=100');
  let most = -1;
  for (const { id } of list.body.data as { id: string }[]) {
    const result = await testing('', id);
    if (result.ads.length > most) [brandtrackerId, all, most] = [id, result, result.ads.length];
  }
  expect(all.batches.every((batch) => batch.ads.length === batch.stats.totalCount)).toBe(true);
  const found = await t.db.prisma.$queryRaw<Row[]>`
    SELECT "id", "videoDurationSec"::float8 AS "videoDuration", length(coalesce("body", ''))::int AS "descriptionLength",
           to_char(least(CASE WHEN "status" = 'active' THEN (now() AT TIME ZONE 'UTC')::date ELSE ("lastSeenAt" AT TIME ZONE 'UTC')::date END, (now() AT TIME ZONE 'UTC')::date), 'YYYY-MM-DD') AS "endDay"
    FROM "ads" WHERE "id" = ANY(${all.ads.map((ad) => ad.id)}::text[])`;
  for (const ad of found) rows.set(ad.id, ad);
});
afterAll(() => t?.close());

describe('GET /v1/brandtrackers/{id}/testing on the demo market', () => {
  it('has a brand with enough testing ads to cut', () => {
    expect(all.ads.length).toBeGreaterThanOrEqual(20);
    expect(rows.size).toBe(all.ads.length);
  });

  it.each(BOUNDS)('honours %s: other batches, and every ad returned within the bound', async (name, value, side) => {
    const bound = cut(all.ads.map(value), side);
    const filtered = await testing(`${name}=${bound}`);
    expect(filtered.signature, `${name}=${bound}`).not.toBe(all.signature);
    for (const ad of filtered.ads) {
      const actual = value(ad);
      expect(actual, `${name}=${bound}: ${ad.id}`).not.toBeNull();
      if (side === 'min') expect(actual! >= bound, `${name}=${bound}: ${ad.id} has ${actual}`).toBe(true);
      else expect(actual! <= bound, `${name}=${bound}: ${ad.id} has ${actual}`).toBe(true);
    }
    // Inclusive: the bound at the brand's extreme value keeps every ad.
    const values = all.ads.map(value).filter((v) => v !== null) as (number | string)[];
    const extreme = side === 'min' ? values.reduce((a, b) => (a < b ? a : b)) : values.reduce((a, b) => (a > b ? a : b));
    if (values.length === all.ads.length) expect((await testing(`${name}=${extreme}`)).signature, `${name}=${extreme}`).toBe(all.signature);
  });

  it("reads the page's spend over spendPerPagePeriod", async () => {
    const [{ advertiser }] = all.ads;
    const total = spendOf(advertiser.totalReach);
    const last30d = spendOf(advertiser.reach30d);
    expect(last30d).toBeLessThan(total);
    expect((await testing(`minSpendPerPage=${total}`)).signature).toBe(all.signature);
    expect((await testing(`minSpendPerPage=${total}&spendPerPagePeriod=total`)).signature).toBe(all.signature);
    expect((await testing(`minSpendPerPage=${total}&spendPerPagePeriod=last30d`)).ads).toEqual([]);
    expect((await testing(`maxSpendPerPage=${last30d}&spendPerPagePeriod=last30d`)).signature).toBe(all.signature);
  });

  it('reads partners as partnership: true keeps the partnership ads, false the others', async () => {
    for (const value of [true, false]) {
      const partners = await testing(`partners=${value}`);
      expect(partners.ads.every((ad) => ad.flags.hasPartnerBadge === value)).toBe(true);
      expect(partners.signature).toBe((await testing(`partnership=${value}`)).signature);
      expect(partners.signature).toBe((await testing(`partners=${value}&partnership=${value}`)).signature);
    }
    const some = all.ads.some((ad) => ad.flags.hasPartnerBadge);
    expect((await testing(`partners=${!some}`)).signature).not.toBe(all.signature);
  });

  it('answers the same on GraphQL', async () => {
    const minDays = cut(all.ads.map((ad) => ad.daysRunning), 'min');
    const after = cut(all.ads.map((ad) => row(ad).endDay), 'min');
    const rest = await testing(`minDaysRunning=${minDays}&lastSeenAfter=${after}&partners=false&maxDescriptionLength=100000`);
    const res = await t.graphql(`query($id: String!, $days: Int!, $after: Date!) {
      brandtrackerTesting(brandtrackerId: $id, limit: 50, minDaysRunning: $days, lastSeenAfter: $after, partners: false, maxDescriptionLength: 100000) {
        data { startDate ads { id } stats { totalCount } } pagination { totalPages } } }`, { id: brandtrackerId, days: minDays, after }, key);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.brandtrackerTesting.pagination.totalPages).toBe(1);
    expect(res.body.data.brandtrackerTesting.data).toEqual(rest.batches.map((batch) => ({ startDate: batch.startDate, ads: batch.ads.map((ad) => ({ id: ad.id })), stats: { totalCount: batch.stats.totalCount } })));
  });
});
