import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setCredits } from '../../src/auth/admin.js';
import { recordEvents } from '../../src/data/events.js';
import { metaAd, metaPageOf, type MetaAdRecord } from '../sources/fakes/meta.js';
import { connect, parse, type TextResult } from '../mcp/client.js';
import { createTestApp, type TestApp } from '../support/app.js';
import * as marketWrites from '../support/market-writes.js';
import { recordStatements } from '../support/statements.js';

// The feed (issue #36): GET /v1/events and Query.events show the dispatched events that concern the workspace (its
// tracked brands, its workspace boards, its own events) and nothing else, page by `seq` with cursors that resume
// exactly after an event, filter, validate, and cost one credit per returned event. Events come from real imports
// (the Meta importer's change detection) and are dispatched by the dispatcher's own consumers.

let t: TestApp;

const DAY_1 = new Date('2026-11-27T10:00:00Z');
const DAY_2 = new Date('2026-11-28T10:00:00Z');
// Page A (ads 0..19) and page B (ads 20..39), all running.
const records = Array.from({ length: 40 }, (_, i) => metaAd(i));
for (const record of records) delete record.ad_delivery_stop_time;
const PAGE_A = metaPageOf(0).pageId;
const PAGE_B = metaPageOf(20).pageId;
const adId = (record: MetaAdRecord) => `facebook_${record.id}`;

const importMeta = (batch: MetaAdRecord[], asOf: Date) => marketWrites.importMetaRecords(t.db.pool, batch, asOf);
const dispatchAll = () => marketWrites.dispatchAll(t.db.pool);

type Event = { id: string; type: string; advertiserId: string | null; adId: string | null; data: { before: unknown; after: unknown } };

/** Every page of the feed, following nextCursor. */
async function readAll(key: string, query: string, limit: number) {
  const events: Event[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const res = await t.rest('GET', `/events?${query}&limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, { key });
    expect(res.status).toBe(200);
    events.push(...res.body.data);
    cursor = res.body.pagination.nextCursor;
    pages++;
  } while (cursor && pages < 100);
  return events;
}

let a: Awaited<ReturnType<TestApp['newKey']>>;
let b: Awaited<ReturnType<TestApp['newKey']>>;
let trackedA = '';

beforeAll(async () => {
  t = await createTestApp();
  await importMeta(records, DAY_1);
  await dispatchAll();
  a = await t.newKey();
  b = await t.newKey();
  const tracked = await t.rest('POST', '/brandtrackers', { key: a.apiKey, body: { facebookPageId: PAGE_A } });
  expect(tracked.status).toBeLessThan(300);
  trackedA = tracked.body.data.id;
});
afterAll(async () => {
  await t?.close();
});

describe('what the feed shows', () => {
  it("a tracked brand's events, newest first, in the public shape, and none of a brand it does not track", async () => {
    const res = await t.rest('GET', '/events?limit=100', { key: a.apiKey });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['requestId', 'data', 'pagination']);
    const events = res.body.data as Event[];
    expect(events.map((e) => e.adId).sort()).toEqual(records.slice(0, 20).map(adId).sort());
    expect(new Set(events.map((e) => e.type))).toEqual(new Set(['ad.created']));
    expect(events.every((e) => e.advertiserId === PAGE_A)).toBe(true);
    expect(Object.keys(events[0])).toEqual(['id', 'type', 'occurredAt', 'source', 'advertiserId', 'adId', 'shopId', 'productId', 'savedSearchId', 'webhookId', 'data']);
    expect(events[0]).toMatchObject({ source: 'meta-ads', data: { before: null, after: { platform: 'facebook', status: 'active' } } });
    const ids = events.map((e) => Number(e.id.replace('evt_', '')));
    expect(ids).toEqual([...ids].sort((x, y) => y - x));
    expect(res.body.pagination).toEqual({ limit: 100, total: 20, totalRelation: 'eq', nextCursor: null });
  });

  it('is empty for a workspace that follows nothing, and free', async () => {
    const res = await t.rest('GET', '/events', { key: b.apiKey });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([]);
    expect(res.headers.get('x-usage-cost')).toBe('0');
  });

  it("another workspace's brandtracker id is not_found, exactly as a missing one", async () => {
    const theirs = await t.rest('GET', `/events?brandtrackerId=${trackedA}`, { key: b.apiKey });
    const missing = await t.rest('GET', `/events?brandtrackerId=${randomUUID()}`, { key: b.apiKey });
    expect([theirs.status, theirs.body.error.code]).toEqual([404, 'not_found']);
    expect(theirs.body.error.message.replace(trackedA, '<id>')).toBe(missing.body.error.message.replace(/[0-9a-f-]{36}/, '<id>'));
    const own = await t.rest('GET', `/events?brandtrackerId=${trackedA}&limit=100`, { key: a.apiKey });
    expect(own.status).toBe(200);
    expect(own.body.data).toHaveLength(20);
  });

  it("an ad saved on a workspace board brings that ad's events, and the workspace's own events are its alone", async () => {
    const board = await t.rest('POST', '/boards', { key: b.apiKey, body: { name: 'Watch list' } });
    const saved = records[25];
    expect((await t.rest('POST', `/boards/${board.body.data.id}/items`, { key: b.apiKey, body: { type: 'ad', targetId: adId(saved) } })).status).toBeLessThan(300);
    await recordEvents(t.db.pool, 'events', [
      { type: 'webhook.disabled', dedupeKey: `test:webhook.disabled:${b.workspaceId}`, workspaceId: b.workspaceId, data: { before: null, after: { reason: 'test' } } },
      // A's own event naming the ad B saved: still A's alone.
      { type: 'search.matched', dedupeKey: `test:search.matched:${a.workspaceId}`, workspaceId: a.workspaceId, adId: adId(saved), data: { before: null, after: { rowId: adId(saved), path: '/v1/ads' } } },
    ]);
    await dispatchAll();
    const res = await t.rest('GET', '/events', { key: b.apiKey });
    expect(res.body.data.map((e: Event) => [e.type, e.adId])).toEqual([['webhook.disabled', null], ['ad.created', adId(saved)]]);
    const byAd = await t.rest('GET', `/events?adId=${adId(saved)}`, { key: b.apiKey });
    expect(byAd.body.data.map((e: Event) => e.type)).toEqual(['ad.created']);
    const ofA = await readAll(a.apiKey, 'order=desc', 100);
    expect(ofA.some((e) => e.type === 'webhook.disabled')).toBe(false);
    expect(ofA.filter((e) => e.type === 'search.matched').map((e) => e.adId)).toEqual([adId(saved)]);
  });
});

describe('paging and resuming', () => {
  it('pages by cursor with no gap and no repeat, in both orders', async () => {
    const all = (await t.rest('GET', '/events?limit=100', { key: a.apiKey })).body.data as Event[];
    const desc = await readAll(a.apiKey, 'order=desc', 7);
    expect(desc.map((e) => e.id)).toEqual(all.map((e) => e.id));
    const asc = await readAll(a.apiKey, 'order=asc', 6);
    expect(asc.map((e) => e.id)).toEqual([...all].reverse().map((e) => e.id));
    const first = await t.rest('GET', '/events?limit=7', { key: a.apiKey });
    expect(first.body.pagination).toMatchObject({ limit: 7, total: 8, totalRelation: 'gte' });
  });

  it('a client that stores its last event resumes after it: the new events once, then nothing', async () => {
    const seen = await readAll(a.apiKey, 'order=asc', 100);
    const last = seen.at(-1)!.id;
    // The next day: one ad of page A stops, one of page B changes its landing page.
    const changed = records.map((record, i) => {
      if (i === 3) return { ...record, ad_delivery_stop_time: '2026-11-28T01:00:00+0000' };
      if (i === 22) return { ...record, ad_creative_link_captions: ['elsewhere.example'] };
      return record;
    });
    await importMeta(changed, DAY_2);
    await dispatchAll();
    const fresh = await t.rest('GET', `/events?order=asc&after=${last}`, { key: a.apiKey });
    expect(fresh.status).toBe(200);
    expect(fresh.body.data.map((e: Event) => [e.type, e.adId])).toEqual([['ad.stopped', adId(records[3])]]);
    expect(fresh.body.data[0].data).toMatchObject({ before: { status: 'active' }, after: { status: 'inactive' } });
    const again = await t.rest('GET', `/events?order=asc&after=${fresh.body.data[0].id}`, { key: a.apiKey });
    expect(again.body.data).toEqual([]);
    // A cursor resumes the same way as the event id it stands for.
    const page = await t.rest('GET', '/events?order=asc&limit=1', { key: a.apiKey });
    const byCursor = await t.rest('GET', `/events?order=asc&limit=3&after=${page.body.pagination.nextCursor}`, { key: a.apiKey });
    const byId = await t.rest('GET', `/events?order=asc&limit=3&after=${page.body.data[0].id}`, { key: a.apiKey });
    expect(byCursor.body.data).toEqual(byId.body.data);
    expect(byCursor.body.data[0].id).toBe(seen[1].id);
  });
});

describe('filters and validation', () => {
  it('filters by type, ad, advertiser, brandtracker and time', async () => {
    const stopped = await t.rest('GET', '/events?types=ad.stopped,advertiser.burst', { key: a.apiKey });
    expect(stopped.body.data.map((e: Event) => e.type)).toEqual(['ad.stopped']);
    const oneAd = await t.rest('GET', `/events?adId=${adId(records[3])}`, { key: a.apiKey });
    expect(oneAd.body.data.map((e: Event) => e.type)).toEqual(['ad.stopped', 'ad.created']);
    // Page B's events concern workspace A only through nothing: filtering on it shows none.
    const otherPage = await t.rest('GET', `/events?advertiserId=${PAGE_B}`, { key: a.apiKey });
    expect(otherPage.body.data).toEqual([]);
    const page = await t.rest('GET', `/events?advertiserId=${PAGE_A}&limit=100`, { key: a.apiKey });
    expect(page.body.data).toHaveLength(21);
    const all = await readAll(a.apiKey, 'order=asc', 100);
    const cut = all.find((e) => e.type === 'ad.stopped')! as Event & { occurredAt: string };
    const before = await t.rest('GET', `/events?to=${encodeURIComponent(cut.occurredAt)}&limit=100`, { key: a.apiKey });
    expect(before.body.data.every((e: Event & { occurredAt: string }) => e.occurredAt < cut.occurredAt)).toBe(true);
    const since = await t.rest('GET', `/events?from=${encodeURIComponent(cut.occurredAt)}&limit=100`, { key: a.apiKey });
    expect(since.body.data.map((e: Event) => e.id)).toContain(cut.id);
    expect(before.body.data.length + since.body.data.length).toBe(all.length);
  });

  it('refuses an unknown type, a limit out of range, a cursor it did not give, both cursor and after, and from after to', async () => {
    const unknown = await t.rest('GET', '/events?types=ad.created,ad.exploded', { key: a.apiKey });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.code).toBe('validation_error');
    expect(unknown.body.error.details.validationErrors).toEqual([
      { field: 'query-string.types', location: 'query-string', expected: [expect.stringContaining('types must be one of the following values: ad.created, ad.stopped,')] },
    ]);
    const limit = await t.rest('GET', '/events?limit=101', { key: a.apiKey });
    expect(limit.body.error.details.validationErrors[0]).toMatchObject({ field: 'query-string.limit', expected: ['limit must not be greater than 100'] });
    for (const after of ['not-a-cursor', 'evt_0', Buffer.from('seq:abc').toString('base64url')]) {
      const bad = await t.rest('GET', `/events?after=${after}`, { key: a.apiKey });
      expect([bad.status, bad.body.error.details.validationErrors[0].field]).toEqual([400, 'query-string.after']);
    }
    const unknownEvent = await t.rest('GET', '/events?after=evt_999999999', { key: a.apiKey });
    expect([unknownEvent.status, unknownEvent.body.error.details.validationErrors[0].field]).toEqual([400, 'query-string.after']);
    const both = await t.rest('GET', '/events?after=evt_1&cursor=evt_2', { key: a.apiKey });
    expect(both.body.error.details.validationErrors[0].field).toBe('query-string.cursor');
    const backwards = await t.rest('GET', '/events?from=2026-11-28T00:00:00Z&to=2026-11-27T00:00:00Z', { key: a.apiKey });
    expect(backwards.body.error.details.validationErrors[0].field).toBe('query-string.to');
  });

  it("another workspace's own event id is not a position of this feed", async () => {
    const own = (await t.rest('GET', '/events', { key: b.apiKey })).body.data.find((e: Event) => e.type === 'webhook.disabled') as Event;
    const theirs = await t.rest('GET', `/events?after=${own.id}`, { key: a.apiKey });
    const missing = await t.rest('GET', '/events?after=evt_999999998', { key: a.apiKey });
    expect([theirs.status, theirs.body.error.details]).toEqual([missing.status, missing.body.error.details]);
  });
});

describe('GraphQL and price', () => {
  it('Query.events answers what the REST route answers', async () => {
    const rest = await t.rest('GET', '/events?limit=5&types=ad.created', { key: a.apiKey });
    const gql = await t.graphql(
      'query($limit: Int, $types: [String!]) { events(limit: $limit, types: $types) { data { id type occurredAt source advertiserId adId shopId productId savedSearchId webhookId data } pagination { limit total totalRelation nextCursor } } }',
      { limit: 5, types: ['ad.created'] },
      a.apiKey,
    );
    expect(gql.body.errors).toBeUndefined();
    expect(gql.body.data.events).toEqual({ data: rest.body.data, pagination: rest.body.pagination });
    const bad = await t.graphql('{ events(types: ["nope"]) { data { id } } }', {}, a.apiKey);
    expect(bad.body.errors[0].extensions.code).toBe('validation_error');
  });

  it('charges one credit per returned event, nothing for an empty page', async () => {
    const key = await t.newKey();
    await setCredits(t.db.prisma, { workspace: key.slug, recurringLimit: 50, recurringUsed: 0, topup: 0 });
    expect((await t.rest('POST', '/brandtrackers', { key: key.apiKey, body: { facebookPageId: PAGE_A } })).status).toBeLessThan(300);
    const page = await t.rest('GET', '/events?limit=7', { key: key.apiKey });
    expect(page.body.data).toHaveLength(7);
    expect([page.headers.get('x-usage-cost'), page.headers.get('x-credits-remaining')]).toEqual(['7', '43']);
    const empty = await t.rest('GET', '/events?types=product.created', { key: key.apiKey });
    expect([empty.body.data.length, empty.headers.get('x-usage-cost')]).toEqual([0, '0']);
    const charges = await t.db.prisma.usageRecord.findMany({ where: { workspaceId: key.workspaceId }, orderBy: { id: 'asc' } });
    expect(charges.map((c) => [c.field, c.rows, c.cost])).toEqual([['Query.events', 7, 7], ['Query.events', 0, 0]]);
  });

  it('reads a page in one statement', async () => {
    const recorder = recordStatements();
    try {
      const res = await t.rest('GET', '/events?limit=10&types=ad.created', { key: a.apiKey });
      expect(res.body.data).toHaveLength(10);
      expect(recorder.own().filter((text) => text.includes('"market_events"'))).toHaveLength(1);
    } finally {
      recorder.restore();
    }
  });
});

describe('whats_new (MCP)', () => {
  async function whatsNew(apiKey: string, args: Record<string, unknown>) {
    const client = await connect(t, apiKey);
    try {
      return (await client.callTool({ name: 'whats_new', arguments: args })) as TextResult;
    } finally {
      await client.close();
    }
  }

  it('answers the feed oldest first, compact, charged per event, and `next` continues exactly after it', async () => {
    const key = await t.newKey();
    await setCredits(t.db.prisma, { workspace: key.slug, recurringLimit: 1000, recurringUsed: 0, topup: 0 });
    expect((await t.rest('POST', '/brandtrackers', { key: key.apiKey, body: { facebookPageId: PAGE_A } })).status).toBeLessThan(300);
    const feed = (await t.rest('GET', '/events?order=asc&limit=100', { key: key.apiKey })).body.data as Event[];
    const first = await whatsNew(key.apiKey, { since: '2020-01-01T00:00:00Z', limit: 4 });
    expect(first.isError).toBeFalsy();
    const answer = parse(first);
    expect(answer.events.map((e: Event) => e.id)).toEqual(feed.slice(0, 4).map((e) => e.id));
    expect(answer.events[0]).toEqual({ id: feed[0].id, type: 'ad.created', occurredAt: expect.any(String), advertiserId: PAGE_A, adId: feed[0].adId, before: null, after: expect.objectContaining({ platform: 'facebook' }) });
    expect(answer.more).toBe(true);
    expect(first._meta).toMatchObject({ 'x-usage-cost': 4 });
    const rest = parse(await whatsNew(key.apiKey, { ...answer.next.arguments, limit: 100 }));
    expect(rest.events.map((e: Event) => e.id)).toEqual(feed.slice(4).map((e) => e.id));
    expect(rest.more).toBe(false);
    const typed = parse(await whatsNew(key.apiKey, { since: feed[0].id, types: ['ad.created'] }));
    const created = feed.slice(1).filter((e) => e.type === 'ad.created');
    expect(typed.events.map((e: Event) => e.id)).toEqual(created.map((e) => e.id));
    const charges = await t.db.prisma.usageRecord.findMany({ where: { workspaceId: key.workspaceId, field: 'Query.events' }, orderBy: { id: 'asc' } });
    expect(charges.map((c) => c.cost)).toEqual([feed.length, 4, feed.length - 4, created.length]);
  });

  it('refuses an unknown type before any call', async () => {
    const result = await whatsNew(a.apiKey, { types: ['ad.exploded'] });
    expect(result.isError).toBe(true);
    expect(parse(result).error.details.validationErrors[0].field).toBe('types');
  });
});
