import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { syncSource, type SyncRunRow } from '../../src/sources/index.js';
import { metaAd, metaPageOf, startFakeMeta, type FakeMeta, type FakeMetaOptions } from './fakes/meta.js';
import { captureOutput, checksum, checksums, fakeServers, FAST, progressLog, runFigures, sourceEnv, storedRun } from './helpers.js';
import { createTestApp, type HttpResult, type TestApp } from '../support/app.js';

// The meta-ads connector against the loopback Ad Library fake: paging, page-id batches, throttles and usage headers,
// retried failures, a refused token (never shown), bad records, and a second run that changes no ad. Read back
// through GET /v1/ads/{id}, POST /v1/ads/query and the stored rows.

const TOKEN = 'EAAGm0PX4ZCpsBAFakeMetaToken9f8e7d';
const AS_OF = new Date();

let t: TestApp;
let key: string;
beforeAll(async () => {
  t = await createTestApp();
  ({ apiKey: key } = await t.newKey());
});
afterAll(() => t?.close());

const env = sourceEnv();
const fakes = fakeServers();
/** The fake of the current test. */
let meta: FakeMeta | undefined;

const ads = (from: number, to: number, overrides: (i: number) => Record<string, unknown> = () => ({})) =>
  Array.from({ length: to - from }, (_, k) => metaAd(from + k, overrides(from + k)));

async function fake(options: Omit<FakeMetaOptions, 'token'> & { token?: string }): Promise<FakeMeta> {
  meta = await fakes.track(startFakeMeta({ token: TOKEN, ...options }));
  env({ META_GRAPH_URL: meta.url, META_ACCESS_TOKEN: TOKEN });
  return meta;
}

const sync = (query: unknown, options: Parameters<typeof syncSource>[3] = {}) => syncSource(t.db.pool, 'meta-ads', query, { http: FAST, ...options });
const get = (route: string) => t.rest('GET', route, { key });
const adIds = (res: HttpResult): string[] => {
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.map((ad: { id: string }) => ad.id).sort();
};
const storedIds = async (from: number, to: number) => {
  const wanted = ads(from, to).map((ad) => `facebook_${String(ad.id)}`);
  const { rows } = await t.db.pool.query<{ id: string }>(`SELECT "id" FROM "ads" WHERE "id" = ANY($1::text[]) ORDER BY 1`, [wanted]);
  return { wanted: wanted.sort(), stored: rows.map((row) => row.id) };
};
const afterOf = (n: number) => meta!.archiveRequests()[n - 1].query.get('after');

describe('meta-ads: paging and the stored ads', () => {
  const query = { countries: ['FR', 'DE'], search: 'our', limit: 10 };
  let first: SyncRunRow;

  it('follows paging.cursors.after to the last page and stores every ad, the stopped ones too', async () => {
    await fake({ ads: ads(0, 45) });
    const log = progressLog();
    first = await sync(query, { asOf: AS_OF, ...log.options });
    expect(runFigures(first)).toEqual({ status: 'succeeded', pages: 5, fetched: 45, inserted: 45, updated: 0, unchanged: 0, skipped: 0 });
    // One search term is one call: done at its last page.
    expect(log.events).toEqual(['page 1', 'page 2', 'page 3', 'page 4', 'page 5', '1/1']);
    expect(first.cursor).toBeNull();
    expect(first.error).toBeNull();

    const requests = meta!.archiveRequests();
    expect(requests).toHaveLength(5);
    expect(requests[0].path).toBe('/v21.0/ads_archive');
    expect(Object.fromEntries(requests[0].query)).toMatchObject({
      access_token: TOKEN, ad_reached_countries: '["FR","DE"]', ad_active_status: 'ALL', ad_type: 'ALL', search_terms: 'our', limit: '10',
    });
    expect(requests[0].query.get('after')).toBeNull();
    for (let n = 2; n <= 5; n++) expect(afterOf(n)).toMatch(/^[A-Za-z0-9+/=]+$/);
    expect(new Set(requests.map((request) => request.query.get('after'))).size).toBe(5);

    const { wanted, stored } = await storedIds(0, 45);
    expect(stored).toEqual(wanted);
    const stopped = ads(0, 45).filter((ad) => ad.ad_delivery_stop_time !== undefined);
    expect(stopped.length).toBeGreaterThan(5);
  });

  it('serves the ads on GET /v1/ads/{id} and POST /v1/ads/query as the importer maps them', async () => {
    const res = await get(`/ads/facebook_${String(metaAd(0).id)}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    // A duplicate group answers with its lead.
    const ad = ads(0, 4).find((a) => `facebook_${String(a.id)}` === res.body.data.id)!;
    const { pageId, pageName } = metaPageOf(0);
    expect(res.body.data).toMatchObject({
      platform: 'facebook',
      content: { title: (ad.ad_creative_link_titles as string[])[0], landingPageDomain: (ad.ad_creative_link_captions as string[])[0] },
      metrics: { reach: ad.eu_total_reach },
      advertiser: { id: pageId, name: pageName },
    });
    const stopped = ads(0, 45).filter((a) => a.ad_delivery_stop_time !== undefined);
    const { rows: statuses } = await t.db.pool.query(`SELECT DISTINCT "status", "lastSeenAt" < $2 AS past FROM "ads" WHERE "id" = ANY($1::text[])`, [
      stopped.map((a) => `facebook_${String(a.id)}`), AS_OF,
    ]);
    expect(statuses).toEqual([{ status: 'inactive', past: true }]);

    // One row per duplicate group (4 ads share a creative): 20 ads of page 0, 20 of page 1, 5 of page 2.
    const listed = await t.rest('POST', '/ads/query', { key, body: { trackedPages: [pageId, metaPageOf(40).pageId], status: 'all', limit: 100 } });
    expect(listed.status, JSON.stringify(listed.body)).toBe(200);
    expect(listed.body.pagination.total).toBe(5 + 2);
    for (const id of adIds(listed)) expect(id).toMatch(/^facebook_\d{16}$/);
    const { rows } = await t.db.pool.query(`SELECT "fetchedFrom", count(*)::int AS n, bool_and("firstFetchedAt" IS NOT NULL) AS dated FROM "ads" GROUP BY 1`);
    expect(rows).toEqual([{ fetchedFrom: 'meta-ads', n: 45, dated: true }]);
  });

  it('runs a second time without changing an ad: inserted 0, updated 0, only the reach snapshots refreshed', async () => {
    await fake({ ads: ads(0, 45) });
    const before = await checksums(t.db.pool, ['ads', 'advertisers', 'ad_demography', 'advertiser_ad_groups', 'advertiser_ad_counts']);
    const reachDays = await checksum(t.db.pool, 'ad_reach_days');
    const again = await sync(query, { asOf: new Date(AS_OF.getTime() + 1000) });
    expect(again.id).not.toBe(first.id);
    expect(runFigures(again)).toEqual({ status: 'succeeded', pages: 5, fetched: 45, inserted: 0, updated: 0, unchanged: 45, skipped: 0 });
    expect(await checksums(t.db.pool, Object.keys(before))).toEqual(before);
    expect(await checksum(t.db.pool, 'ad_reach_days')).not.toBe(reachDays);
    const { rows } = await t.db.pool.query(`SELECT count(*)::int AS n, min("fetchedAt") AS at FROM "ad_reach_days" GROUP BY "date"`);
    expect(rows).toEqual([{ n: 45, at: new Date(AS_OF.getTime() + 1000) }]);
  });
});

describe('meta-ads: page ids', () => {
  it('asks for more than 10 page ids in calls of 10, each paged on its own', async () => {
    const pages = Array.from({ length: 25 }, (_, k) => 10 + k);
    const records = pages.flatMap((p) => [metaAd(p * 20), metaAd(p * 20 + 1)]);
    await fake({ ads: records });
    const pageIds = pages.map((p) => metaPageOf(p * 20).pageId);
    const log = progressLog();
    const run = await sync({ countries: ['FR'], pageIds: [...pageIds, pageIds[3]], limit: 15 }, log.options);
    expect(runFigures(run)).toMatchObject({ status: 'succeeded', fetched: 50, inserted: 50 });
    // Progress in calls of 10 page ids, each done once its last page is stored.
    expect(log.events).toEqual(['page 1', 'page 2', '1/3', 'page 3', 'page 4', '2/3', 'page 5', '3/3']);

    const asked = meta!.archiveRequests().map((request) => ({ ids: JSON.parse(request.query.get('search_page_ids')!) as string[], after: request.query.get('after') }));
    expect(asked.map((a) => a.ids.length)).toEqual([10, 10, 10, 10, 5]); // 20 ads a call of 10 pages: 15, then 5 after
    expect(asked.map((a) => a.after === null)).toEqual([true, false, true, false, true]);
    expect(meta!.archiveRequests().every((request) => request.query.get('search_terms') === null)).toBe(true);
    expect([...new Set(asked.flatMap((a) => a.ids))].sort()).toEqual([...pageIds].sort());
    expect(run.pages).toBe(5);
    const wanted = records.map((ad) => `facebook_${String(ad.id)}`);
    const { rows } = await t.db.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM "ads" WHERE "id" = ANY($1::text[])`, [wanted]);
    expect(rows[0].n).toBe(50);
  });
});

describe('meta-ads: throttles, usage and failures', () => {
  it('waits out the throttle codes 4, 17, 613, 80004 and HTTP 429, retrying the same page', async () => {
    const regainMinutes = 0.0005; // 30 ms
    await fake({
      ads: ads(800, 850),
      faults: [
        { at: 1, fault: { kind: 'throttle', code: 4, regainMinutes } },
        { at: 3, fault: { kind: 'throttle', code: 17, regainMinutes } },
        { at: 5, fault: { kind: 'throttle', code: 613, regainMinutes } },
        { at: 7, fault: { kind: 'throttle', code: 80004, regainMinutes, status: 403 } },
        { at: 8, fault: { kind: 'http429' } },
      ],
    });
    const reasons: string[] = [];
    const run = await sync({ countries: ['FR'], search: 'our', limit: 10 }, { onWait: (wait) => reasons.push(wait.reason) });
    expect(runFigures(run)).toEqual({ status: 'succeeded', pages: 5, fetched: 50, inserted: 50, updated: 0, unchanged: 0, skipped: 0 });
    expect(run.waits).toBe(5);
    expect((await storedRun(t.db.pool, run.id)).waits).toBe(5);
    expect(run.waitedMs).toBeGreaterThanOrEqual(4 * 30);
    expect(reasons.map((reason) => /error (\d+)/.exec(reason)?.[1])).toEqual(['4', '17', '613', '80004', '4']);
    expect(meta!.archiveRequests()).toHaveLength(10);
    // Each throttled request is asked again as it was.
    for (const n of [1, 3, 5, 7]) expect(afterOf(n + 1)).toBe(afterOf(n));
    expect(afterOf(9)).toBe(afterOf(7));
    expect((await storedIds(800, 850)).stored).toHaveLength(50);
  });

  it('slows down when x-app-usage reaches 90%: a pause before the next call, recorded as a wait', async () => {
    await fake({ ads: ads(900, 930), usage: (n) => (n === 1 ? { call_count: 93 } : {}) });
    const reasons: string[] = [];
    const run = await sync({ countries: ['FR'], search: 'our', limit: 10 }, { http: { ...FAST, maxWaitMs: 150 }, onWait: (wait) => reasons.push(wait.reason) });
    expect(runFigures(run)).toMatchObject({ status: 'succeeded', pages: 3, inserted: 30 });
    expect(run.waits).toBe(1);
    expect(run.waitedMs).toBe(150);
    expect(reasons).toEqual(['Meta usage at its limit: slowing down']);
    // The pause came before the second call; none before the third (one wait recorded above): the gap between the
    // second and third calls is the import of a page, which a loaded machine may stretch past the pause.
    const [r1, r2] = meta!.archiveRequests();
    expect(r2.at - r1.at).toBeGreaterThanOrEqual(145);
  });

  it('retries an HTTP 500, a cut JSON body and a dropped connection, then goes on', async () => {
    await fake({ ads: ads(1000, 1030), faults: [{ at: 1, fault: 'server_error' }, { at: 3, fault: 'truncated' }, { at: 5, fault: 'dropped' }] });
    const run = await sync({ countries: ['FR'], search: 'our', limit: 10 });
    expect(runFigures(run)).toEqual({ status: 'succeeded', pages: 3, fetched: 30, inserted: 30, updated: 0, unchanged: 0, skipped: 0 });
    expect(run.waits).toBe(3);
    expect(meta!.archiveRequests()).toHaveLength(6);
    for (const n of [1, 3, 5]) expect(afterOf(n + 1)).toBe(afterOf(n));
    expect((await storedIds(1000, 1030)).stored).toHaveLength(30);
  });

  it('gives up after its retries with a failed run that a later run resumes', async () => {
    await fake({ ads: ads(1050, 1070), faults: [{ when: (request) => request.query.get('after') !== null, fault: 'server_error', times: 4 }] });
    const query = { countries: ['FR'], search: 'our', limit: 10 };
    const failed = await sync(query);
    expect(failed).toMatchObject({ status: 'failed', pages: 1, inserted: 10 });
    expect(failed.error).toMatch(/Meta answered HTTP 500, error 2: An unexpected error .*gave up after 3 retries/);
    expect(failed.cursor).toMatchObject({ leg: 0, after: expect.any(String) });
    const resumed = await sync(query);
    expect(resumed).toMatchObject({ id: failed.id, status: 'succeeded', pages: 2, inserted: 20, cursor: null, error: null });
  });
});

describe('meta-ads: the access token', () => {
  const leaks = async (run: SyncRunRow | undefined, error: unknown, output: string) => {
    const everything = [
      JSON.stringify(run ?? null), JSON.stringify(error ?? null), String((error as Error | undefined)?.message), String((error as Error | undefined)?.stack), output,
      JSON.stringify((await t.db.pool.query(`SELECT * FROM "sync_runs"`)).rows), JSON.stringify(t.logs),
    ].join('\n');
    return everything.includes(TOKEN) || everything.includes(TOKEN.slice(0, 20));
  };

  it('stops on an expired token with a failed run whose error names the cause, never the token; a new token resumes it', async () => {
    await fake({ ads: ads(1100, 1130), faults: [{ at: 2, fault: 'expired_token' }] });
    const query = { countries: ['FR'], search: 'our', limit: 10 };
    const { result: run, error, output } = await captureOutput(() => sync(query));
    expect(error).toBeUndefined();
    expect(run).toMatchObject({ status: 'failed', pages: 1, inserted: 10 });
    expect(run!.error).toMatch(/^Meta answered HTTP 400, error 190\/463: Error validating access token: Session has expired/);
    expect(run!.error).toMatch(/Check META_ACCESS_TOKEN/);
    expect(meta!.archiveRequests().map((request) => request.query.get('access_token'))).toEqual([TOKEN, TOKEN]);
    expect(await leaks(run, error, output)).toBe(false);
    expect((await storedRun(t.db.pool, run!.id)).error).toBe(run!.error);

    const renewed = `${TOKEN}-renewed`;
    meta!.setToken(renewed);
    env({ META_GRAPH_URL: meta!.url, META_ACCESS_TOKEN: renewed });
    const resumed = await sync(query);
    expect(resumed).toMatchObject({ id: run!.id, status: 'succeeded', pages: 3, inserted: 30, error: null });
    expect(meta!.archiveRequests()[2].query.get('after')).toBe(afterOf(2));
  });

  it('stops on a token Meta does not know, before any page', async () => {
    await fake({ ads: ads(1150, 1160), token: 'the-real-token-1234' });
    const { result: run, error, output } = await captureOutput(() => sync({ countries: ['FR'], search: 'nothing in common', limit: 10 }));
    expect(run).toMatchObject({ status: 'failed', pages: 0, fetched: 0 });
    expect(run!.error).toMatch(/error 190: Invalid OAuth access token.*Check META_ACCESS_TOKEN/);
    expect(meta!.archiveRequests()).toHaveLength(1); // an auth error is not retried
    expect(await leaks(run, error, output)).toBe(false);
  });

  it('refuses to start without a token: a validation_error and no request', async () => {
    await fake({ ads: [] });
    env({ META_GRAPH_URL: meta!.url });
    await expect(sync({ countries: ['FR'], search: 'x' })).rejects.toMatchObject({ extensions: { code: 'validation_error' }, message: /META_ACCESS_TOKEN is not set/ });
    expect(meta!.requests).toHaveLength(0);
  });
});

describe('meta-ads: bad records', () => {
  it('reports a malformed record in the run (page, position, reason), skips it and stores the rest', async () => {
    await fake({
      ads: ads(1200, 1212, (i) => (i === 1203 ? { ad_creative_bodies: 'not a list' } : i === 1207 ? { id: undefined } : {})),
    });
    const run = await sync({ countries: ['FR'], pageIds: [metaPageOf(1200).pageId], limit: 6 });
    expect(runFigures(run)).toEqual({ status: 'succeeded', pages: 2, fetched: 12, inserted: 10, updated: 0, unchanged: 0, skipped: 2 });
    expect(run.errors).toEqual([
      { page: 'ads_archive call 1/1, page 1', position: 3, reason: 'ad_creative_bodies must be an array of strings' },
      { page: 'ads_archive call 1/1, page 2', position: 1, reason: 'id is missing' },
    ]);
    expect(run.skips).toEqual({ 'ad_creative_bodies must be an array of strings': 1, 'id is missing': 1 });
    const { stored } = await storedIds(1200, 1212);
    expect(stored).toHaveLength(10);
    expect(stored).not.toContain(`facebook_${String(metaAd(1203).id)}`);
    expect((await get(`/ads/facebook_${String(metaAd(1204).id)}`)).status).toBe(200);
  });
});
