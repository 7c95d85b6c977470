import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setCredits } from '../../src/auth/admin.js';
import { recordEvents } from '../../src/data/events.js';
import { importData } from '../../src/data/import/index.js';
import { eventConsumers } from '../../src/events/index.js';
import { liveConsumer } from '../../src/events/live.js';
import { createLiveHub, liveHub, setLiveHub, type LiveHub } from '../../src/schema/events/service.js';
import { metaAd, metaPageOf, type MetaAdRecord } from '../sources/fakes/meta.js';
import { createTestApp, type TestApp } from '../support/app.js';
import * as marketWrites from '../support/market-writes.js';

// Live subscriptions (issue #36): GET /v1/events/stream (SSE) and `subscription { events }` on /graphql over SSE. A
// stream replays the stored events after its position (Last-Event-ID or after), then gets the events dispatched after
// a real import, none missed or repeated at the switch, even when a published batch is lost; it only ever carries its
// workspace's events; it costs one credit per event delivered; and it crosses instances through Redis.

// Heartbeats every 20 ms here, so a test can wait for one (read when the app is made), and the hub's check of
// dispatched batches every 30 ms (read when the process's hub is made).
process.env.EVENTS_HEARTBEAT_MS = '20';
process.env.EVENTS_LIVE_CHECK_MS = '30';

let t: TestApp;
let scratch: string;
let files = 0;
let day = Date.parse('2026-11-27T10:00:00Z');

const records = Array.from({ length: 40 }, (_, i) => metaAd(i));
for (const record of records) delete record.ad_delivery_stop_time;
const PAGE_A = metaPageOf(0).pageId;
const PAGE_B = metaPageOf(20).pageId;
const adId = (record: MetaAdRecord) => `facebook_${record.id}`;

/** Imports the records as of the next day, with the ads at `stop` stopped (each stop is one ad.stopped event). */
async function importDay(stop: number[] = []) {
  day += 86_400_000;
  const stopTime = `${new Date(day).toISOString().slice(0, 10)}T01:00:00+0000`;
  stop.forEach((i) => (records[i] = { ...records[i], ad_delivery_stop_time: stopTime }));
  const file = path.join(scratch, `meta-${++files}.json`);
  await writeFile(file, JSON.stringify({ data: records }));
  await importData(t.db.pool, 'meta-ads', [file], { asOf: new Date(day) });
}

const dispatchAll = (consumers = eventConsumers()) => marketWrites.dispatchAll(t.db.pool, consumers);

type Message = { id?: string; event?: string; data?: string; comment?: string };

/** A Server-Sent Events reader of one response. */
function sse(response: Response) {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  const parse = (frame: string): Message => {
    const message: Message = {};
    for (const line of frame.split('\n')) {
      if (line.startsWith(':')) message.comment = line.slice(1).trim();
      const [, name, value] = /^(id|event|data): ?(.*)$/.exec(line) ?? [];
      if (name) message[name as 'id' | 'event' | 'data'] = name === 'data' && message.data !== undefined ? `${message.data}\n${value}` : value;
    }
    return message;
  };
  return {
    /** The next frame (a message or a comment). */
    async frame(): Promise<Message> {
      for (;;) {
        const end = text.indexOf('\n\n');
        if (end >= 0) {
          const frame = text.slice(0, end);
          text = text.slice(end + 2);
          return parse(frame);
        }
        const { value, done } = await reader.read();
        if (done) throw new Error('the stream ended');
        text += decoder.decode(value, { stream: true });
      }
    },
    /** The next message that carries data (comments skipped). */
    async message(): Promise<Message> {
      for (;;) {
        const frame = await this.frame();
        if (frame.data !== undefined) return frame;
      }
    },
    async messages(count: number): Promise<Message[]> {
      const out: Message[] = [];
      while (out.length < count) out.push(await this.message());
      return out;
    },
    close: () => reader.cancel(),
  };
}

// The events these tests follow: the rank moves the same imports cause on the tracked pages are left out (their own
// test is test/events/change-detection.test.ts).
const AD_EVENTS = 'types=ad.created&types=ad.stopped&types=search.matched';
const withAdEvents = (query: string) => (query.includes('types=') ? query : query ? `${query}&${AD_EVENTS}` : `?${AD_EVENTS}`);

async function stream(key: string, query = '', headers: Record<string, string> = {}) {
  return t.app.fetch(`http://api.test/v1/events/stream${withAdEvents(query)}`, { headers: { authorization: `Bearer ${key}`, ...headers } });
}

type Event = { id: string; type: string; adId: string | null; advertiserId: string | null };

/** The feed, oldest first. */
async function feed(key: string): Promise<Event[]> {
  return (await t.rest('GET', `/events?order=asc&limit=100&${AD_EVENTS}`, { key })).body.data;
}

/** Waits until no stream of this process listens (a closed stream left the hub). */
async function noListeners(hub: LiveHub = liveHub()) {
  for (let i = 0; i < 200 && hub.listening(); i++) await new Promise((resolve) => setTimeout(resolve, 5));
  return !hub.listening();
}

let a: Awaited<ReturnType<TestApp['newKey']>>;
let b: Awaited<ReturnType<TestApp['newKey']>>;

beforeAll(async () => {
  t = await createTestApp();
  scratch = await mkdtemp(path.join(tmpdir(), 'mi-live-'));
  await importDay();
  await dispatchAll();
  a = await t.newKey();
  b = await t.newKey();
  expect((await t.rest('POST', '/brandtrackers', { key: a.apiKey, body: { facebookPageId: PAGE_A } })).status).toBeLessThan(300);
  expect((await t.rest('POST', '/brandtrackers', { key: b.apiKey, body: { facebookPageId: PAGE_B } })).status).toBeLessThan(300);
});
afterAll(async () => {
  await t?.close();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

describe('GET /v1/events/stream', () => {
  it('replays the stored events after Last-Event-ID, then delivers the events of the next import live, none twice', async () => {
    const stored = await feed(a.apiKey);
    expect(stored).toHaveLength(20);
    const res = await stream(a.apiKey, '', { 'last-event-id': stored[4].id });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const events = sse(res);
    try {
      const replay = await events.messages(15);
      expect(replay.map((m) => JSON.parse(m.data!).id)).toEqual(stored.slice(5).map((e) => e.id));
      expect(JSON.parse(replay[0].data!)).toEqual(stored[5]);
      // Each id is a cursor: the feed resumes after it exactly as after the event.
      const after = await t.rest('GET', `/events?order=asc&limit=1&after=${replay[0].id}`, { key: a.apiKey });
      expect(after.body.data[0].id).toBe(stored[6].id);

      await importDay([2, 21]);
      await dispatchAll();
      const live = JSON.parse((await events.message()).data!) as Event;
      expect([live.type, live.adId]).toEqual(['ad.stopped', adId(records[2])]);
      // The next message is the next live event: nothing replayed again, nothing of page B.
      await importDay([3]);
      await dispatchAll();
      const next = JSON.parse((await events.message()).data!) as Event;
      expect([next.type, next.adId]).toEqual(['ad.stopped', adId(records[3])]);
      expect((await feed(a.apiKey)).slice(-2).map((e) => e.id)).toEqual([live.id, next.id]);
    } finally {
      await events.close();
    }
    expect(await noListeners()).toBe(true);
  });

  it('without a position starts live; a workspace gets its own brands\' events only; heartbeats keep it open', async () => {
    const ofA = sse(await stream(a.apiKey));
    const ofB = sse(await stream(b.apiKey));
    try {
      expect((await ofA.frame()).comment).toBe('connected');
      expect((await ofA.frame()).comment).toBe('heartbeat');
      await importDay([4, 22]);
      await dispatchAll();
      expect(JSON.parse((await ofA.message()).data!)).toMatchObject({ type: 'ad.stopped', adId: adId(records[4]), advertiserId: PAGE_A });
      expect(JSON.parse((await ofB.message()).data!)).toMatchObject({ type: 'ad.stopped', adId: adId(records[22]), advertiserId: PAGE_B });
      await importDay([23]);
      await dispatchAll();
      expect(JSON.parse((await ofB.message()).data!)).toMatchObject({ adId: adId(records[23]) });
      // An event of workspace A naming page B's ad is A's alone: B's next event is the next stop of its page.
      await recordEvents(t.db.pool, 'events', [
        { type: 'search.matched', dedupeKey: `live:search.matched:${a.workspaceId}`, workspaceId: a.workspaceId, advertiserId: PAGE_B, adId: adId(records[24]), data: { before: null, after: { rowId: adId(records[24]) } } },
      ]);
      await importDay([24]);
      await dispatchAll();
      expect(JSON.parse((await ofA.message()).data!)).toMatchObject({ type: 'search.matched', adId: adId(records[24]) });
      expect(JSON.parse((await ofB.message()).data!)).toMatchObject({ type: 'ad.stopped', adId: adId(records[24]) });
    } finally {
      await ofA.close();
      await ofB.close();
    }
  });

  it('takes the feed\'s filters, and `after` in the query string', async () => {
    const stored = await feed(a.apiKey);
    const stops = stored.filter((e) => e.type === 'ad.stopped');
    expect(stops.length).toBeGreaterThanOrEqual(3);
    const events = sse(await stream(a.apiKey, `?types=ad.stopped&after=${stored[0].id}`));
    try {
      expect((await events.messages(stops.length)).map((m) => JSON.parse(m.data!).id)).toEqual(stops.map((e) => e.id));
    } finally {
      await events.close();
    }
    // A brandtracker's live events (its id in capitals is the same id).
    const tracked = (await t.rest('GET', '/brandtrackers', { key: a.apiKey })).body.data[0].id as string;
    const ofBrand = sse(await stream(a.apiKey, `?brandtrackerId=${tracked.toUpperCase()}`));
    try {
      expect((await ofBrand.frame()).comment).toBe('connected');
      await importDay([10, 25]);
      await dispatchAll();
      expect(JSON.parse((await ofBrand.message()).data!)).toMatchObject({ type: 'ad.stopped', adId: adId(records[10]) });
    } finally {
      await ofBrand.close();
    }
  });

  it('is refused before it starts with the REST envelope: no key, a bad filter, another workspace\'s brandtracker', async () => {
    const none = await t.app.fetch('http://api.test/v1/events/stream');
    expect([none.status, (await none.json()).error.code]).toEqual([401, 'missing_api_key']);
    const bad = await stream(a.apiKey, '?types=ad.vanished');
    const body = await bad.json();
    expect([bad.status, body.error.code, body.error.details.validationErrors[0].field]).toEqual([400, 'validation_error', 'query-string.types']);
    const badId = await stream(a.apiKey, '', { 'last-event-id': 'nonsense' });
    expect([badId.status, (await badId.json()).error.details.validationErrors[0].field]).toEqual([400, 'query-string.after']);
    const theirs = (await t.rest('GET', '/brandtrackers', { key: b.apiKey })).body.data[0].id as string;
    const foreign = await stream(a.apiKey, `?brandtrackerId=${theirs}`);
    const missing = await stream(a.apiKey, `?brandtrackerId=${randomUUID()}`);
    expect([foreign.status, (await foreign.json()).error.code]).toEqual([404, 'not_found']);
    expect(missing.status).toBe(404);
    await missing.body?.cancel();
    expect(await noListeners()).toBe(true);
  });

  it('lets a browser send Last-Event-ID from another origin (CORS)', async () => {
    const preflight = await t.app.fetch('http://api.test/v1/events/stream', {
      method: 'OPTIONS',
      headers: { origin: 'https://app.example', 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization, last-event-id' },
    });
    expect(preflight.headers.get('access-control-allow-headers')).toMatch(/Last-Event-ID/i);
  });

  it('delivers what a lost batch held: the stream reads the stored events when a batch does not follow the one before', async () => {
    const events = sse(await stream(a.apiKey));
    try {
      expect((await events.frame()).comment).toBe('connected');
      // This batch is dispatched without the live consumer: published to nobody, as a batch Redis lost.
      await importDay([5]);
      await dispatchAll([]);
      await importDay([6]);
      await dispatchAll();
      const got = (await events.messages(2)).map((m) => JSON.parse(m.data!).adId);
      expect(got).toEqual([adId(records[5]), adId(records[6])]);
    } finally {
      await events.close();
    }
  });

  it('delivers a batch published to nobody with no batch after it: the hub finds it dispatched and the stream reads it', async () => {
    const events = sse(await stream(a.apiKey));
    try {
      expect((await events.frame()).comment).toBe('connected');
      await importDay([9]);
      await dispatchAll([]);
      expect(JSON.parse((await events.message()).data!)).toMatchObject({ type: 'ad.stopped', adId: adId(records[9]) });
    } finally {
      await events.close();
    }
  });

  it('costs one credit per event delivered: a workspace that cannot pay gets insufficient_credits, then resumes where it stopped', async () => {
    const key = await t.newKey();
    expect((await t.rest('POST', '/brandtrackers', { key: key.apiKey, body: { facebookPageId: PAGE_A } })).status).toBeLessThan(300);
    const stored = await feed(key.apiKey);
    const from = stored.at(-4)!;
    await setCredits(t.db.prisma, { workspace: key.slug, recurringLimit: 0, recurringUsed: 0, topup: 0 });
    const broke = await stream(key.apiKey);
    expect([broke.status, (await broke.json()).error.code]).toEqual([402, 'insufficient_credits']);

    await setCredits(t.db.prisma, { workspace: key.slug, recurringLimit: 2, recurringUsed: 0, topup: 0 });
    const short = sse(await stream(key.apiKey, '', { 'last-event-id': from.id }));
    const refused = await short.message();
    expect(refused.event).toBe('error');
    expect(JSON.parse(refused.data!).error.code).toBe('insufficient_credits');
    await expect(short.frame()).rejects.toThrow('the stream ended');

    await setCredits(t.db.prisma, { workspace: key.slug, recurringLimit: 10, recurringUsed: 0, topup: 0 });
    const paid = sse(await stream(key.apiKey, '', { 'last-event-id': from.id }));
    try {
      expect((await paid.messages(3)).map((m) => JSON.parse(m.data!).id)).toEqual(stored.slice(-3).map((e) => e.id));
    } finally {
      await paid.close();
    }
    const charges = await t.db.prisma.usageRecord.findMany({ where: { workspaceId: key.workspaceId }, orderBy: { id: 'asc' } });
    expect(charges.filter((c) => c.field === 'Subscription.events').map((c) => [c.rows, c.cost])).toEqual([[3, 3]]);
  });
});

describe('subscription { events } over SSE', () => {
  it('receives the events of an import as they are dispatched', async () => {
    const res = await t.app.fetch('http://api.test/graphql', {
      method: 'POST',
      headers: { authorization: `Bearer ${a.apiKey}`, 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ query: 'subscription { events(types: ["ad.stopped"]) { cursor event { id type adId advertiserId data } } }' }),
    });
    expect(res.status).toBe(200);
    const events = sse(res);
    try {
      // The subscription is open once its first ping comes (yoga's).
      await events.frame();
      await importDay([7]);
      await dispatchAll();
      const next = await events.message();
      expect(next.event).toBe('next');
      const item = JSON.parse(next.data!).data.events;
      expect(item.event).toMatchObject({ type: 'ad.stopped', adId: adId(records[7]), advertiserId: PAGE_A, data: { after: { status: 'inactive' } } });
      const resumed = await t.rest('GET', `/events?order=asc&after=${item.cursor}&${AD_EVENTS}`, { key: a.apiKey });
      expect(resumed.body.data).toEqual([]);
    } finally {
      await events.close();
    }
    expect(await noListeners()).toBe(true);
  });

  it('answers a refused subscription with the error code', async () => {
    const res = await t.app.fetch('http://api.test/graphql', {
      method: 'POST',
      headers: { authorization: `Bearer ${a.apiKey}`, 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ query: 'subscription { events(types: ["nope"]) { cursor } }' }),
    });
    const message = await sse(res).message();
    expect(JSON.parse(message.data!).errors[0].extensions.code).toBe('validation_error');
  });
});

describe.skipIf(!process.env.TEST_REDIS_URL)('across instances through Redis', () => {
  it('a stream on one instance gets the batches another instance dispatched', async () => {
    const channel = `market-events-test-${randomUUID()}`;
    const here = createLiveHub({ redisUrl: process.env.TEST_REDIS_URL, channel });
    const there = createLiveHub({ redisUrl: process.env.TEST_REDIS_URL, channel });
    const before = setLiveHub(here);
    try {
      expect(here.shared).toBe(true);
      const events = sse(await stream(a.apiKey));
      try {
        expect((await events.frame()).comment).toBe('connected');
        await importDay([8]);
        // The other instance's dispatcher: its live consumer publishes on its own hub.
        await dispatchAll([liveConsumer(() => there)]);
        expect(JSON.parse((await events.message()).data!)).toMatchObject({ type: 'ad.stopped', adId: adId(records[8]) });
      } finally {
        await events.close();
      }
      expect(await noListeners(here)).toBe(true);
    } finally {
      if (before) setLiveHub(before);
      await Promise.all([here.close(), there.close()]);
    }
  });
});
