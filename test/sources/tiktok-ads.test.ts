import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { syncSource } from '../../src/sources/index.js';
import { startFakeTikTok, tiktokAd, type FakeTikTok, type FakeTikTokOptions } from './fakes/tiktok.js';
import { captureOutput, checksums, fakeServers, FAST, progressLog, runFigures, sourceEnv } from './helpers.js';
import { createTestApp, type TestApp } from '../support/app.js';

// The tiktok-ads connector against the loopback Commercial Content API fake: the client token (fetched once, renewed
// when it expires or is refused), search_id paging, one leg per country, exact 64-bit advertiser ids, throttles and
// retries, a refused client (its secret never shown). Read back through GET /v1/tiktok/library/{itemId}.

const SECRET = 'tt-client-secret-5b1f0c9e77';
const CLIENT = 'tt-client-key-aw3kqp';

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
let tiktok: FakeTikTok | undefined;

const ads = (from: number, to: number) => Array.from({ length: to - from }, (_, k) => tiktokAd(from + k));
type QueryBody = { filters: { country_code: string; ad_published_date_range: { min: string; max: string }; advertiser_business_ids?: unknown[] }; search_term?: string; max_count: number; search_id?: string };
const bodies = () => tiktok!.queryRequests().map((request) => JSON.parse(request.body) as QueryBody);
const bearers = () => tiktok!.queryRequests().map((request) => String(request.headers.authorization));

async function fake(options: Omit<FakeTikTokOptions, 'clientKey' | 'clientSecret'>): Promise<FakeTikTok> {
  tiktok = await fakes.track(startFakeTikTok({ clientKey: CLIENT, clientSecret: SECRET, ...options }));
  env({ TIKTOK_API_URL: tiktok.url, TIKTOK_CLIENT_KEY: CLIENT, TIKTOK_CLIENT_SECRET: SECRET });
  return tiktok;
}

const base = { search: 'SAS', from: '2024-01-01', to: '2026-11-01' };
const sync = (query: unknown, options: Parameters<typeof syncSource>[3] = {}) => syncSource(t.db.pool, 'tiktok-ads', query, { http: FAST, ...options });
const storedCount = async (from: number, to: number) => {
  const { rows } = await t.db.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM "tiktok_items" WHERE "id" = ANY($1::text[])`, [
    ads(from, to).map((ad) => String(ad.ad.id)),
  ]);
  return rows[0].n;
};

describe('tiktok-ads: paging and the token', () => {
  it('fetches the client token once and pages with search_id while has_more', async () => {
    await fake({ ads: ads(0, 120) });
    const run = await sync({ ...base, countries: ['FR'] });
    expect(runFigures(run)).toEqual({ status: 'succeeded', pages: 3, fetched: 120, inserted: 120, updated: 0, unchanged: 0, skipped: 0 });
    expect(tiktok!.tokenRequests()).toHaveLength(1);
    expect(Object.fromEntries(new URLSearchParams(tiktok!.tokenRequests()[0].body))).toEqual({ client_key: CLIENT, client_secret: SECRET, grant_type: 'client_credentials' });
    expect(new Set(bearers())).toEqual(new Set([`Bearer ${tiktok!.tokens()[0]}`]));

    const sent = bodies();
    expect(sent).toHaveLength(3);
    expect(sent[0]).toEqual({ filters: { ad_published_date_range: { min: '20240101', max: '20261101' }, country_code: 'FR' }, search_term: 'SAS', max_count: 50 });
    expect(sent[0].search_id).toBeUndefined();
    expect(sent[1].search_id).toEqual(expect.any(String));
    expect(sent[2].search_id).toEqual(expect.any(String));
    expect(sent[2].search_id).not.toBe(sent[1].search_id);
    expect(tiktok!.queryRequests()[0].query.get('fields')).toContain('ad.id');
    expect(await storedCount(0, 120)).toBe(120);
  });

  it('serves the stored ads exactly: 64-bit ids, the advertiser as profile', async () => {
    const record = tiktokAd(21);
    const res = await t.rest('GET', `/tiktok/library/tiktok_${String(record.ad.id)}`, { key });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({
      id: `tiktok_${String(record.ad.id)}`,
      tiktokId: String(record.ad.id),
      type: 'ad',
      status: record.ad.status,
      profile: { id: String(record.advertiser.business_id), name: record.advertiser.business_name },
    });
  });

  it('changes nothing on a second run of the same query', async () => {
    await fake({ ads: ads(0, 120) });
    const tables = ['tiktok_items', 'tiktok_profiles'];
    const before = await checksums(t.db.pool, tables);
    const run = await sync({ ...base, countries: ['FR'] });
    expect(runFigures(run)).toEqual({ status: 'succeeded', pages: 3, fetched: 120, inserted: 0, updated: 0, unchanged: 120, skipped: 0 });
    expect(await checksums(t.db.pool, tables)).toEqual(before);
  });

  it('renews a token the API calls expired, once, and asks the same page again', async () => {
    await fake({ ads: ads(130, 230), faults: [{ at: 2, fault: 'expire_tokens' }] });
    const run = await sync({ ...base, countries: ['FR'] });
    expect(runFigures(run)).toMatchObject({ status: 'succeeded', pages: 2, inserted: 100 });
    expect(tiktok!.tokenRequests()).toHaveLength(2);
    const [first, second] = tiktok!.tokens();
    expect(bearers()).toEqual([`Bearer ${first}`, `Bearer ${first}`, `Bearer ${second}`]);
    expect(bodies()[2]).toEqual(bodies()[1]);
  });

  it('renews a short-lived token before it expires rather than on every request', async () => {
    // A 1.5 s token renewed 150 ms before it expires; six pages of 250 ms or more outlive it.
    await fake({ ads: ads(240, 360), tokenTtlSeconds: 1.5, latencyMs: 250 });
    const run = await sync({ ...base, countries: ['FR'], maxCount: 20 });
    expect(runFigures(run)).toMatchObject({ status: 'succeeded', pages: 6, inserted: 120 });
    expect(tiktok!.queryRequests()).toHaveLength(6); // no request refused for an expired token
    expect(tiktok!.tokenRequests().length).toBeGreaterThanOrEqual(2);
    expect(tiktok!.tokenRequests().length).toBeLessThanOrEqual(4); // not one per request
  });
});

describe('tiktok-ads: countries and advertisers', () => {
  it('runs one leg per country, each paged from its own start', async () => {
    await fake({ ads: ads(400, 460) });
    const log = progressLog();
    const run = await sync({ ...base, countries: ['FR', 'DE', 'IT'] }, log.options);
    expect(runFigures(run)).toEqual({ status: 'succeeded', pages: 6, fetched: 180, inserted: 60, updated: 0, unchanged: 120, skipped: 0 });
    expect(log.events).toEqual(['page 1', 'page 2', '1/3', 'page 3', 'page 4', '2/3', 'page 5', 'page 6', '3/3']);
    expect(bodies().map((body) => [body.filters.country_code, body.search_id === undefined])).toEqual([
      ['FR', true], ['FR', false], ['DE', true], ['DE', false], ['IT', true], ['IT', false],
    ]);
    expect(tiktok!.tokenRequests()).toHaveLength(1);
  });

  it('sends advertiser business ids as exact 64-bit numbers', async () => {
    await fake({ ads: ads(500, 560) });
    const advertiser = String(tiktokAd(520).advertiser.business_id);
    expect(advertiser).toMatch(/^\d{19}$/);
    const run = await sync({ countries: ['FR'], advertiserIds: [advertiser], from: '2024-01-01', to: '2026-11-01' });
    expect(tiktok!.queryRequests()[0].body).toContain(`"advertiser_business_ids":[${advertiser}]`);
    expect(runFigures(run)).toMatchObject({ status: 'succeeded', fetched: 20, inserted: 20 });
    const { rows } = await t.db.pool.query(`SELECT DISTINCT "profileId" FROM "tiktok_items" WHERE "id" = ANY($1::text[])`, [ads(500, 560).map((ad) => String(ad.ad.id))]);
    expect(rows).toEqual([{ profileId: advertiser }]);
  });
});

describe('tiktok-ads: throttles, failures and the client', () => {
  it('waits out rate_limit_exceeded and retries internal_error and a cut body', async () => {
    await fake({
      ads: ads(600, 660),
      faults: [{ at: 1, fault: 'rate_limit_exceeded' }, { at: 2, fault: 'rate_limit_exceeded' }, { at: 4, fault: 'internal_error' }, { at: 6, fault: 'truncated' }],
    });
    const reasons: string[] = [];
    const run = await sync({ ...base, countries: ['FR'], maxCount: 25 }, { onWait: (wait) => reasons.push(wait.reason) });
    expect(runFigures(run)).toEqual({ status: 'succeeded', pages: 3, fetched: 60, inserted: 60, updated: 0, unchanged: 0, skipped: 0 });
    expect(run.waits).toBe(4);
    expect(reasons.slice(0, 2)).toEqual([expect.stringMatching(/^throttled: TikTok answered HTTP 429, rate_limit_exceeded/), expect.stringMatching(/^throttled/)]);
    expect(tiktok!.queryRequests()).toHaveLength(7);
    expect(await storedCount(600, 660)).toBe(60);
  });

  it('stops on invalid_client with a failed run that names the cause, never the secret', async () => {
    await fake({ ads: ads(700, 710) });
    env({ TIKTOK_API_URL: tiktok!.url, TIKTOK_CLIENT_KEY: CLIENT, TIKTOK_CLIENT_SECRET: `${SECRET}-old` });
    const { result: run, error, output } = await captureOutput(() => sync({ ...base, countries: ['FR'] }));
    expect(error).toBeUndefined();
    expect(run).toMatchObject({ status: 'failed', pages: 0, fetched: 0 });
    expect(run!.error).toMatch(/^TikTok refused the client credentials \(invalid_client: Client key or secret is incorrect\., log_id \w+\)\. Check TIKTOK_CLIENT_KEY and TIKTOK_CLIENT_SECRET\.$/);
    expect(tiktok!.tokenRequests()).toHaveLength(1);
    expect(tiktok!.queryRequests()).toHaveLength(0);
    const everything = [JSON.stringify(run), output, JSON.stringify((await t.db.pool.query(`SELECT * FROM "sync_runs"`)).rows), JSON.stringify(t.logs)].join('\n');
    expect(everything).not.toContain(SECRET);
  });

  it('refuses max_count above 50 and a run without client settings before any request', async () => {
    await fake({ ads: [] });
    const runs = async () => (await t.db.pool.query(`SELECT count(*)::int AS n FROM "sync_runs"`)).rows[0].n as number;
    const before = await runs();
    await expect(sync({ ...base, countries: ['FR'], maxCount: 51 })).rejects.toMatchObject({ extensions: { code: 'validation_error' }, message: 'tiktok-ads: maxCount is at most 50' });
    env({ TIKTOK_API_URL: tiktok!.url, TIKTOK_CLIENT_KEY: CLIENT });
    await expect(sync({ ...base, countries: ['FR'] })).rejects.toMatchObject({ extensions: { code: 'validation_error' }, message: /TIKTOK_CLIENT_SECRET are not set/ });
    expect(tiktok!.requests).toHaveLength(0);
    expect(await runs()).toBe(before);
  });
});
