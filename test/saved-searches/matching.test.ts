import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importData } from '../../src/data/import/index.js';
import { withRowRestriction } from '../../src/schema/shared/list.js';
import { metaAd, metaPageOf, type MetaAdRecord } from '../sources/fakes/meta.js';
import { tiktokAd } from '../sources/fakes/tiktok.js';
import { createTestApp, type TestApp } from '../support/app.js';
import * as marketWrites from '../support/market-writes.js';

// What saved searches say after writes of market data, on real imports dispatched by the dispatcher's own consumers:
// a row that newly enters a search is a search.matched event of the search's workspace, once (a re-run of the import
// says nothing more); a row that leaves is a search.left only where the search asks for it; identical searches of two
// workspaces each get theirs. And the restriction the evaluation runs under never reaches a request.

let t: TestApp;
let scratch: string;
let a: Awaited<ReturnType<TestApp['newKey']>>;
let b: Awaited<ReturnType<TestApp['newKey']>>;

const DAY_1 = new Date('2026-11-27T10:00:00Z');
const DAY_2 = new Date('2026-11-28T10:00:00Z');
const DAY_3 = new Date('2026-11-29T10:00:00Z');
// Page A (ads 0..19) and page B (ads 20..39), all running until day 3 stops page A's.
const running = (i: number) => {
  const record = metaAd(i);
  delete record.ad_delivery_stop_time;
  return record;
};
const PAGE_A = metaPageOf(0).pageId;
const PAGE_B = metaPageOf(20).pageId;
const pageA = Array.from({ length: 20 }, (_, i) => running(i));
const pageB = Array.from({ length: 20 }, (_, i) => running(20 + i));

const importMeta = (batch: MetaAdRecord[], asOf: Date) => marketWrites.importMetaRecords(t.db.pool, batch, asOf);
const dispatchAll = () => marketWrites.dispatchAll(t.db.pool);

type SearchEvent = { type: string; workspaceId: string; savedSearchId: string; data: { before: { rowId: string } | null; after: { rowId: string; method: string; path: string; name: string } | null } };

/** The search events of a workspace, in dispatch order (its own events in the feed's table). */
async function searchEvents(workspaceId: string): Promise<SearchEvent[]> {
  const { rows } = await t.db.pool.query<SearchEvent>(
    `SELECT e."type", e."workspaceId", e."savedSearchId", e."data" FROM "market_events" e
     WHERE e."workspaceId" = $1::uuid AND e."type" LIKE 'search.%' ORDER BY e."seq", e."id"`,
    [workspaceId],
  );
  return rows;
}

const leadsOf = async (page: string) =>
  ((await t.rest('POST', '/ads/query', { key: a.apiKey, body: { trackedPages: [page], limit: 100 } })).body.data as { id: string }[]).map((ad) => ad.id).sort();

const save = async (key: string, name: string, params: Record<string, unknown>, notifyLeft = false) => {
  const res = await t.rest('POST', '/saved-searches', { key, body: { name, method: 'POST', path: '/v1/ads/query', params, notifyLeft } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as { id: string; matches: number };
};

type Saved = { id: string; matches: number };
let newPageA: Saved;
let newPageB: Saved;
let leftTold: Saved;
let leftQuiet: Saved;
let brandB: Saved;
let copyMerino: Saved;
let tiktokProfile: Saved;
const TIKTOK_PROFILE = String(tiktokAd(0).advertiser.business_id);

beforeAll(async () => {
  t = await createTestApp();
  scratch = await mkdtemp(path.join(tmpdir(), 'mi-saved-matching-'));
  await importMeta(pageA, DAY_1);
  await dispatchAll();
  a = await t.newKey();
  b = await t.newKey();
  // The same search in two workspaces, page B's ads (none yet); and page A's running ads, told or not when they leave.
  newPageA = await save(a.apiKey, 'Page B launches', { trackedPages: [PAGE_B] });
  newPageB = await save(b.apiKey, 'Page B, seen from B', { trackedPages: [PAGE_B] });
  leftTold = await save(a.apiKey, 'Page A running', { trackedPages: [PAGE_A], status: 'active' }, true);
  leftQuiet = await save(a.apiKey, 'Page A running, quietly', { trackedPages: [PAGE_A], status: 'active' }, false);
  // Other lists: advertisers by brand name and by their ads' copy (a search over ads first: a statement through Prisma
  // on the dispatch connection), and a TikTok profile's library items (shown as tiktok_<id>).
  const other = async (name: string, method: string, where: string, params: Record<string, unknown>) => {
    const res = await t.rest('POST', '/saved-searches', { key: a.apiKey, body: { name, method, path: where, params } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.data as Saved;
  };
  brandB = await other('Laine', 'GET', '/v1/advertisers', { search: [metaPageOf(20).pageName.split(' ')[1]] });
  copyMerino = await other('Merino sellers', 'POST', '/v1/advertisers/query', { search: ['merino'], searchType: 'adCopy' });
  tiktokProfile = await other('A TikTok profile', 'GET', '/v1/tiktok/library', { tiktokPageId: TIKTOK_PROFILE });
});
afterAll(async () => {
  await t?.close();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

describe('rows that enter a search', () => {
  it("makes no event for a search's baseline", async () => {
    expect(leftTold.matches).toBe((await leadsOf(PAGE_A)).length);
    expect(newPageA.matches).toBe(0);
    await dispatchAll();
    expect(await searchEvents(a.workspaceId)).toEqual([]);
  });

  it("announces a new matching ad once to each workspace whose search it enters, and a re-run of the import says nothing more", async () => {
    await importMeta(pageB, DAY_2);
    await dispatchAll();
    const leads = await leadsOf(PAGE_B);
    expect(leads.length).toBeGreaterThan(1);
    for (const [workspace, search, name] of [[a, newPageA, 'Page B launches'], [b, newPageB, 'Page B, seen from B']] as const) {
      const events = (await searchEvents(workspace.workspaceId)).filter((e) => e.savedSearchId === search.id);
      expect(events.map((e) => e.type)).toEqual(leads.map(() => 'search.matched'));
      expect(events.map((e) => e.data.after!.rowId).sort()).toEqual(leads);
      expect(events[0].data).toEqual({ before: null, after: { rowId: expect.any(String), method: 'POST', path: '/v1/ads/query', name } });
      expect((await t.rest('GET', `/saved-searches/${search.id}`, { key: workspace.apiKey })).body.data.matches).toBe(leads.length);
    }
    // Page A's searches saw nothing of page B.
    expect((await searchEvents(a.workspaceId)).filter((e) => e.savedSearchId === leftTold.id || e.savedSearchId === leftQuiet.id)).toEqual([]);

    await importMeta(pageB, DAY_2);
    await importMeta(pageB.map((record) => ({ ...record, eu_total_reach: Number(record.eu_total_reach) + 5 })), DAY_2);
    await dispatchAll();
    expect((await searchEvents(a.workspaceId)).filter((e) => e.savedSearchId === newPageA.id)).toHaveLength(leads.length);
    expect((await searchEvents(b.workspaceId)).filter((e) => e.savedSearchId === newPageB.id)).toHaveLength(leads.length);
  });

  it("shows the workspace's search events in its feed, and none of another workspace's", async () => {
    const feed = await t.rest('GET', '/events?types=search.matched&limit=100', { key: b.apiKey });
    expect(feed.status, JSON.stringify(feed.body)).toBe(200);
    expect(feed.body.data.length).toBe((await leadsOf(PAGE_B)).length);
    expect(new Set(feed.body.data.map((e: { savedSearchId: string }) => e.savedSearchId))).toEqual(new Set([newPageB.id]));
  });
});

describe('rows that leave a search', () => {
  it('announces an ad that stops only for the search that asks (notifyLeft), and both searches let it go', async () => {
    const before = await leadsOf(PAGE_A);
    expect(before.length).toBeGreaterThan(1);
    // Page A's ads stop: they no longer match `status: active`.
    await importMeta(pageA.map((record) => ({ ...record, ad_delivery_stop_time: '2026-11-28' })), DAY_3);
    await dispatchAll();
    const events = await searchEvents(a.workspaceId);
    const told = events.filter((e) => e.savedSearchId === leftTold.id);
    expect(told.map((e) => e.type)).toEqual(before.map(() => 'search.left'));
    expect(told.map((e) => e.data.before!.rowId).sort()).toEqual(before);
    expect(told[0].data).toEqual({ before: { rowId: expect.any(String), method: 'POST', path: '/v1/ads/query', name: 'Page A running' }, after: null });
    expect(events.filter((e) => e.savedSearchId === leftQuiet.id)).toEqual([]);
    for (const search of [leftTold, leftQuiet]) expect((await t.rest('GET', `/saved-searches/${search.id}`, { key: a.apiKey })).body.data.matches).toBe(0);
    // A re-run of the day's import: nothing left to leave.
    await importMeta(pageA.map((record) => ({ ...record, ad_delivery_stop_time: '2026-11-28' })), DAY_3);
    await dispatchAll();
    expect((await searchEvents(a.workspaceId)).filter((e) => e.savedSearchId === leftTold.id)).toHaveLength(before.length);
  });

  it('announces a row again when it comes back after it left, each time a change brings it', async () => {
    // A word no ad of the market has: an ad's copy gains it, loses it, gains it again (ad.copy_changed each day).
    const res = await t.rest('POST', '/saved-searches', { key: b.apiKey, body: { name: 'Zebras', method: 'GET', path: '/v1/ads', params: { search: 'zebra' }, notifyLeft: true } });
    expect(res.body.data.matches).toBe(0);
    const withCopy = (body: string) => [{ ...pageB[8], ad_creative_bodies: [body] }];
    const original = String((pageB[8].ad_creative_bodies as string[])[0]);
    const days = ['2026-12-01', '2026-12-02', '2026-12-03'].map((day) => new Date(`${day}T10:00:00Z`));
    await importMeta(withCopy(`${original} Now with zebra print.`), days[0]);
    await dispatchAll();
    await importMeta(withCopy(original), days[1]);
    await dispatchAll();
    await importMeta(withCopy(`${original} Zebra print is back.`), days[2]);
    await dispatchAll();
    const events = (await searchEvents(b.workspaceId)).filter((e) => e.savedSearchId === res.body.data.id);
    expect(events.map((e) => e.type)).toEqual(['search.matched', 'search.left', 'search.matched']);
    expect(new Set(events.map((e) => (e.data.after ?? e.data.before)!.rowId))).toEqual(new Set([`facebook_${pageB[8].id}`]));
    expect((await t.rest('GET', `/saved-searches/${res.body.data.id}`, { key: b.apiKey })).body.data.matches).toBe(1);
  });
});

describe('the other lists', () => {
  it('announces an advertiser that enters an advertisers search, by its name or by its ads', async () => {
    // Page B came with day 2's import; page A had merino ads from day 1 (in the baseline).
    expect(brandB.matches).toBe(0);
    expect(copyMerino.matches).toBe(1);
    const events = await searchEvents(a.workspaceId);
    for (const search of [brandB, copyMerino]) {
      const mine = events.filter((e) => e.savedSearchId === search.id);
      expect(mine.map((e) => [e.type, e.data.after!.rowId])).toEqual([['search.matched', PAGE_B]]);
      expect(mine[0].data.after).toMatchObject({ method: search === brandB ? 'GET' : 'POST', path: search === brandB ? '/v1/advertisers' : '/v1/advertisers/query' });
    }
  });

  it("announces a TikTok profile's new items by the id the library shows", async () => {
    expect(tiktokProfile.matches).toBe(0);
    const file = path.join(scratch, 'tiktok.json');
    await writeFile(file, JSON.stringify({ data: { ads: Array.from({ length: 25 }, (_, i) => tiktokAd(i)) } }));
    await importData(t.db.pool, 'tiktok-ads', [file], { asOf: DAY_3 });
    await dispatchAll();
    const library = await t.rest('GET', `/tiktok/library?tiktokPageId=${TIKTOK_PROFILE}&limit=50`, { key: a.apiKey });
    expect(library.status, JSON.stringify(library.body)).toBe(200);
    const shown = (library.body.data as { id: string }[]).map((item) => item.id).sort();
    expect(shown.length).toBeGreaterThan(0);
    expect(shown[0]).toMatch(/^tiktok_\d+$/);
    const events = (await searchEvents(a.workspaceId)).filter((e) => e.savedSearchId === tiktokProfile.id);
    expect(events.map((e) => e.data.after!.rowId).sort()).toEqual(shown);
    // Only the items of that profile: the next profile's five came with them.
    expect(shown).toHaveLength(20);
  });
});

describe('the restriction of an evaluation', () => {
  it('never reaches a request: a list asked while a restricted run waits, and after it, answers its full page', async () => {
    const full = await t.rest('POST', '/ads/query', { key: a.apiKey, body: { limit: 100 } });
    expect(full.body.data.length).toBeGreaterThan(2);
    const one = full.body.data[0].id as string;
    // The restricted run waits on its statement, its restriction in force, while the test (outside it) asks the list.
    let entered!: () => void;
    let release!: () => void;
    const inside = new Promise<void>((resolve) => (entered = resolve));
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { searchAds } = await import('../../src/schema/ads/service/search.js');
    const run = withRowRestriction({
      among: [one],
      statement: async (_db, statement) => {
        entered();
        await gate;
        return (await t.db.pool.query<{ id: string }>(statement.text, statement.values)).rows;
      },
    }, async () => {
      await searchAds(t.db.prisma, {}, { filter: {}, sort: { sortBy: 'newest' }, page: { page: 1, limit: 25 }, cpm: 9 });
    });
    await inside;
    const during = await t.rest('POST', '/ads/query', { key: a.apiKey, body: { limit: 100 } });
    release();
    const found = await run;
    expect(found).toEqual([one]);
    expect(during.body.data.map((ad: { id: string }) => ad.id)).toEqual(full.body.data.map((ad: { id: string }) => ad.id));
    const after = await t.rest('POST', '/ads/query', { key: a.apiKey, body: { limit: 100 } });
    expect(after.body.data.map((ad: { id: string }) => ad.id)).toEqual(full.body.data.map((ad: { id: string }) => ad.id));
  });
});
