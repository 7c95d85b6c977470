import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { dispatchOnce } from '../../src/events/index.js';
import { startJobs, type Jobs } from '../../src/jobs/index.js';
import { claimDeliveries, type WebhookSettings } from '../../src/schema/webhooks/service.js';
import { metaAd, metaPageOf, type MetaAdRecord } from '../sources/fakes/meta.js';
import { createTestApp, type TestApp } from '../support/app.js';
import * as marketWrites from '../support/market-writes.js';
import { idsOf, QUIET, startReceiver, verified, workspaceEvents, type Receiver } from './helpers.js';

// Deliveries through the job queue to a real receiver on 127.0.0.1, on both databases: the events of an import that
// concern a tracked brand arrive signed (verified with the standardwebhooks package); a receiver that fails its first
// attempts gets every event exactly once after it recovers, in order; both secrets verify during a rotation's
// overlap; a replay sends a delivery again; the SSRF guard is checked at each delivery; deliveries in flight when
// the workers stop, or whose worker died, are delivered after a restart; an endpoint failing for too long is disabled
// and its workspace told with a webhook.disabled event. Dispatch is driven by the test (dispatchOnce).

// Short retries (a retry within 10 to 40 ms) and a window long enough that they are never given up here.
const FAST: Partial<WebhookSettings> = { retryBaseMs: 10, retryMaxDelayMs: 40, retryWindowMs: 120_000, timeoutMs: 5_000 };

let t: TestApp;
let jobs: Jobs | null = null;
const receivers: Receiver[] = [];

async function receiver(...args: Parameters<typeof startReceiver>): Promise<Receiver> {
  const started = await startReceiver(...args);
  receivers.push(started);
  return started;
}

const dispatchAll = () => marketWrites.dispatchAll(t.db.pool);

const start = async (settings: Partial<WebhookSettings> = FAST) => {
  await jobs?.stop();
  jobs = await startJobs(t.db.pool, { work: true, logger: QUIET, webhooks: { settings, sweepMs: 100 } });
};

const createWebhook = async (key: string, body: Record<string, unknown>) => {
  const res = await t.rest('POST', '/webhooks', { key, body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as { id: string; secret: string };
};

const deliveries = async (key: string, webhookId: string, query = '') => {
  const res = await t.rest('GET', `/webhooks/${webhookId}/deliveries${query}`, { key });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
};

/** Waits until the webhook's deliveries all have left `pending` and `sending`. */
async function settled(key: string, webhookId: string) {
  for (let i = 0; i < 1500; i++) {
    const open = (await deliveries(key, webhookId, '?status=pending')).pagination.total + (await deliveries(key, webhookId, '?status=sending')).pagination.total;
    if (open === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('deliveries still open');
}

beforeAll(async () => {
  process.env.WEBHOOK_ALLOW_PRIVATE = 'true';
  t = await createTestApp();
  // Started before any webhook exists: the queue starts with the first deliveries.
  await start();
});
afterEach(() => {
  process.env.WEBHOOK_ALLOW_PRIVATE = 'true';
});
afterAll(async () => {
  await jobs?.stop();
  await Promise.all(receivers.map((r) => r.close()));
  await t?.close();
  delete process.env.WEBHOOK_ALLOW_PRIVATE;
});

const importMeta = (records: MetaAdRecord[], asOf: Date) => marketWrites.importMetaRecords(t.db.pool, records, asOf);

describe('an import that changes a tracked brand', () => {
  it('is delivered signed to the webhooks of the workspaces that track it, and to no other', async () => {
    const tracking = await t.newKey();
    const other = await t.newKey();
    const records = Array.from({ length: 6 }, (_, i) => metaAd(i));
    for (const record of records) delete record.ad_delivery_stop_time;
    await importMeta(records, new Date('2026-11-27T10:00:00Z'));
    await dispatchAll();
    const pageId = metaPageOf(0).pageId;
    const tracked = await t.rest('POST', '/brandtrackers', { key: tracking.apiKey, body: { facebookPageId: pageId } });
    expect(tracked.status, JSON.stringify(tracked.body)).toBeLessThan(300);
    const mine = await receiver();
    const theirs = await receiver();
    const hook = await createWebhook(tracking.apiKey, { url: mine.url, eventTypes: ['ad.stopped', 'ad.landing_page_changed'] });
    await createWebhook(other.apiKey, { url: theirs.url, eventTypes: ['*'] });

    const changed = records.map((record, i) =>
      i === 0 ? { ...record, ad_delivery_stop_time: '2026-11-28T01:00:00+0000' } : i === 1 ? { ...record, ad_creative_link_captions: ['elsewhere.example'] } : record,
    );
    await importMeta(changed, new Date('2026-11-28T10:00:00Z'));
    expect(await dispatchAll()).toBeGreaterThanOrEqual(2);
    await mine.waitFor((r) => r.length >= 2);

    const { rows: expected } = await t.db.pool.query<{ id: string; type: string; adId: string }>(
      `SELECT 'evt_' || "id" AS "id", "type", "adId" FROM "market_events" WHERE "type" IN ('ad.stopped', 'ad.landing_page_changed') AND "advertiserId" = $1 ORDER BY "seq"`,
      [pageId],
    );
    expect(expected.map((e) => e.type).sort()).toEqual(['ad.landing_page_changed', 'ad.stopped']);
    expect(idsOf(mine.receipts)).toEqual(expected.map((e) => e.id));
    for (const [i, receipt] of mine.receipts.entries()) {
      const payload = verified(hook.secret, receipt);
      expect(payload).toMatchObject({ type: expected[i].type, data: { id: expected[i].id, type: expected[i].type, adId: expected[i].adId, advertiserId: pageId, source: 'meta-ads' } });
      expect(payload.timestamp).toBe(payload.data.occurredAt);
      expect(Math.abs(Number(receipt.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(300);
    }
    // The receiver has the requests; the log records them once their answers are read.
    await settled(tracking.apiKey, hook.id);
    const log = await deliveries(tracking.apiKey, hook.id);
    expect(log.pagination.total).toBe(2);
    expect(log.data.map((d: { eventId: string }) => d.eventId)).toEqual(expected.map((e) => e.id).reverse());
    for (const delivery of log.data) {
      expect(delivery).toMatchObject({ status: 'delivered', attempts: 1, responseStatus: 200, error: null, nextAttemptAt: null, deliveredAt: expect.any(String) });
      expect(delivery.latencyMs).toBeGreaterThanOrEqual(0);
    }
    // The other workspace does not track the brand: nothing for it.
    expect(theirs.receipts).toEqual([]);
  });
});

describe('a receiver that fails its first three attempts', () => {
  it('gets every event exactly once after it recovers, in order: the failing head holds the rest back', async () => {
    const { apiKey, workspaceId } = await t.newKey();
    const flaky = await receiver((n) => (n <= 3 ? 500 : 200));
    const hook = await createWebhook(apiKey, { url: flaky.url, eventTypes: ['search.matched'] });
    const ids = await workspaceEvents(t.db.pool, workspaceId, 6);
    await dispatchAll();
    await flaky.waitFor(() => flaky.accepted().length >= 6);
    await settled(apiKey, hook.id);
    expect(idsOf(flaky.accepted())).toEqual(ids);
    expect(idsOf(flaky.receipts)).toEqual([ids[0], ids[0], ids[0], ...ids]);
    const log = (await deliveries(apiKey, hook.id)).data.reverse();
    expect(log.map((d: { attempts: number; status: string }) => [d.attempts, d.status])).toEqual([[4, 'delivered'], ...ids.slice(1).map(() => [1, 'delivered'])]);
    expect((await t.rest('GET', `/webhooks/${hook.id}`, { key: apiKey })).body.data).toMatchObject({ consecutiveFailures: 0, failingSince: null, lastSuccessAt: expect.any(String), enabled: true });
  });

  it('logs a failing attempt with its status, error and next attempt', async () => {
    const { apiKey, workspaceId } = await t.newKey();
    let open = false;
    const gate = await receiver(() => (open ? 204 : 503));
    const hook = await createWebhook(apiKey, { url: gate.url, eventTypes: ['*'] });
    await start({ ...FAST, retryBaseMs: 60_000, retryMaxDelayMs: 60_000 });
    try {
      await workspaceEvents(t.db.pool, workspaceId, 2);
      await dispatchAll();
      await gate.waitFor((r) => r.length >= 1);
      let pending: { data: Record<string, unknown>[] } = { data: [] };
      for (let i = 0; i < 500 && !pending.data.some((d) => d.attempts === 1); i++) pending = await deliveries(apiKey, hook.id, '?status=pending');
      const [second, first] = pending.data;
      expect(first).toMatchObject({ status: 'pending', attempts: 1, responseStatus: 503, error: 'HTTP 503', nextAttemptAt: expect.any(String), lastAttemptAt: expect.any(String) });
      expect(Date.parse(first.nextAttemptAt as string)).toBeLessThanOrEqual(Date.now() + 60_000);
      expect(second).toMatchObject({ status: 'pending', attempts: 0, responseStatus: null, lastAttemptAt: null });
      expect((await t.rest('GET', `/webhooks/${hook.id}`, { key: apiKey })).body.data).toMatchObject({ consecutiveFailures: 1, failingSince: expect.any(String) });
      // A replay of the waiting head sends it now, without waiting for its retry.
      open = true;
      const replayed = await t.rest('POST', `/webhooks/${hook.id}/deliveries/${first.id}/replay`, { key: apiKey });
      expect(replayed.status, JSON.stringify(replayed.body)).toBe(200);
      expect(replayed.body.data).toMatchObject({ id: first.id, status: 'pending' });
      await gate.waitFor(() => gate.accepted().length >= 2);
      await settled(apiKey, hook.id);
    } finally {
      await start();
    }
  });
});

describe('rotation and replay', () => {
  it('signs with both secrets during the overlap, each verifying alone', async () => {
    const { apiKey, workspaceId } = await t.newKey();
    const sink = await receiver();
    const hook = await createWebhook(apiKey, { url: sink.url, eventTypes: ['search.matched'] });
    const rotated = (await t.rest('POST', `/webhooks/${hook.id}/rotate-secret`, { key: apiKey })).body.data;
    await workspaceEvents(t.db.pool, workspaceId, 1);
    await dispatchAll();
    await sink.waitFor((r) => r.length >= 1);
    const [receipt] = sink.receipts;
    expect(String(receipt.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(verified(rotated.secret, receipt).type).toBe('search.matched');
    expect(verified(hook.secret, receipt).type).toBe('search.matched');
  });

  it('sends a delivered delivery again with the same webhook-id, and 409 while the webhook is disabled', async () => {
    const { apiKey, workspaceId } = await t.newKey();
    const sink = await receiver();
    const hook = await createWebhook(apiKey, { url: sink.url, eventTypes: ['*'] });
    const [id] = await workspaceEvents(t.db.pool, workspaceId, 1);
    await dispatchAll();
    await sink.waitFor((r) => r.length >= 1);
    await settled(apiKey, hook.id);
    const [delivery] = (await deliveries(apiKey, hook.id)).data;
    expect(delivery).toMatchObject({ eventId: id, status: 'delivered', attempts: 1 });
    const replay = await t.graphql(`mutation($w: String!, $d: ID!) { webhookDeliveryReplay(webhookId: $w, deliveryId: $d) { id status } }`, { w: hook.id, d: delivery.id }, apiKey);
    expect(replay.body.data.webhookDeliveryReplay).toEqual({ id: delivery.id, status: 'pending' });
    await sink.waitFor((r) => r.length >= 2);
    expect(idsOf(sink.receipts)).toEqual([id, id]);
    await settled(apiKey, hook.id);
    expect((await deliveries(apiKey, hook.id)).data[0]).toMatchObject({ status: 'delivered', attempts: 2 });

    await t.rest('PATCH', `/webhooks/${hook.id}`, { key: apiKey, body: { enabled: false } });
    const refused = await t.rest('POST', `/webhooks/${hook.id}/deliveries/${delivery.id}/replay`, { key: apiKey });
    expect([refused.status, refused.body.error.code]).toEqual([409, 'conflict']);
    const missing = await t.rest('POST', `/webhooks/${hook.id}/deliveries/999999999/replay`, { key: apiKey });
    expect([missing.status, missing.body.error.code]).toEqual([404, 'not_found']);
  });
});

describe('the SSRF guard at each delivery', () => {
  it('refuses a private address when it is no longer allowed, and delivers once it is', async () => {
    const { apiKey, workspaceId } = await t.newKey();
    const sink = await receiver();
    const hook = await createWebhook(apiKey, { url: sink.url, eventTypes: ['*'] });
    process.env.WEBHOOK_ALLOW_PRIVATE = 'false';
    await workspaceEvents(t.db.pool, workspaceId, 1);
    await dispatchAll();
    let log: { data: Record<string, unknown>[] } = { data: [] };
    for (let i = 0; i < 500 && !(log.data[0]?.attempts as number); i++) log = await deliveries(apiKey, hook.id, '?status=pending');
    expect(log.data[0]).toMatchObject({ error: 'url must use https (http needs WEBHOOK_ALLOW_PRIVATE=true)', responseStatus: null });
    expect(sink.receipts).toEqual([]);
    process.env.WEBHOOK_ALLOW_PRIVATE = 'true';
    await sink.waitFor((r) => r.length >= 1);
    await settled(apiKey, hook.id);
  });
});

describe('a restart in the middle of deliveries', () => {
  it('loses none: what was in flight when the workers stopped, or when a worker died, is delivered after the restart', async () => {
    const { apiKey, workspaceId } = await t.newKey();
    // The workers stop as the receiver takes its third delivery (it answers each after 20 ms): the rest wait in the table.
    let stopped: Promise<void> | null = null;
    const sink = await receiver((n) => {
      if (n === 3) stopped = jobs!.stop();
      return 200;
    }, { delayMs: 20 });
    const hook = await createWebhook(apiKey, { url: sink.url, eventTypes: ['*'] });
    const ids = await workspaceEvents(t.db.pool, workspaceId, 30);
    await dispatchAll();
    await sink.waitFor((r) => r.length >= 3);
    await stopped;
    jobs = null;
    expect(sink.receipts.length).toBeLessThan(30);
    // A worker that dies after claiming leaves `sending` deliveries leased: the restart takes them when the lease ends.
    const claimed = await claimDeliveries(t.db.pool, hook.id, { limit: 5, leaseMs: 200 });
    expect(claimed?.deliveries.length).toBe(5);
    await start();
    await sink.waitFor(() => new Set(idsOf(sink.accepted())).size >= 30);
    await settled(apiKey, hook.id);
    // Every event, first received in order (one in flight at the stop may come twice: at least once).
    expect([...new Set(idsOf(sink.accepted()))]).toEqual(ids);
  });
});

describe('an endpoint that keeps failing', () => {
  it('is disabled after its failures, with webhook.disabled recorded for its workspace, and the delivery failed after its window', async () => {
    const { apiKey, workspaceId } = await t.newKey();
    const broken = await receiver(() => 500);
    const watcher = await receiver();
    const hook = await createWebhook(apiKey, { url: broken.url, eventTypes: ['search.matched'] });
    const watch = await createWebhook(apiKey, { url: watcher.url, eventTypes: ['webhook.disabled'] });
    await start({ retryBaseMs: 5, retryMaxDelayMs: 20, retryWindowMs: 2_000, disableAfterMs: 60_000, disableFailures: 3, timeoutMs: 5_000 });
    try {
      await workspaceEvents(t.db.pool, workspaceId, 1);
      await dispatchAll();
      let webhook: Record<string, unknown> = {};
      for (let i = 0; i < 1500 && webhook.enabled !== false; i++) {
        webhook = (await t.rest('GET', `/webhooks/${hook.id}`, { key: apiKey })).body.data;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(webhook).toMatchObject({ enabled: false, disabledAt: expect.any(String), disabledReason: expect.stringMatching(/^no successful delivery since .*: \d+ failed attempts in a row \(the last: HTTP 500\)$/) });
      expect(webhook.consecutiveFailures as number).toBeGreaterThanOrEqual(3);
      const [delivery] = (await deliveries(apiKey, hook.id)).data;
      expect(delivery).toMatchObject({ status: 'failed', responseStatus: 500, nextAttemptAt: null });
      const { rows } = await t.db.pool.query(`SELECT "type", "workspaceId", "webhookId", "data" FROM "market_events" WHERE "type" = 'webhook.disabled' AND "webhookId" = $1`, [hook.id]);
      expect(rows).toEqual([{ type: 'webhook.disabled', workspaceId, webhookId: hook.id, data: expect.objectContaining({ before: { enabled: true }, after: expect.objectContaining({ enabled: false, reason: webhook.disabledReason }) }) }]);
      // The workspace is told: a webhook of it that asks for webhook.disabled gets the event.
      await dispatchAll();
      await watcher.waitFor((r) => r.length >= 1);
      expect(verified(watch.secret, watcher.receipts[0])).toMatchObject({ type: 'webhook.disabled', data: { webhookId: hook.id, type: 'webhook.disabled' } });
      // Disabled: nothing more is attempted.
      const attempts = broken.receipts.length;
      await workspaceEvents(t.db.pool, workspaceId, 1);
      await dispatchAll();
      expect((await deliveries(apiKey, hook.id)).pagination.total).toBe(1);
      expect(broken.receipts.length).toBe(attempts);
    } finally {
      await start();
    }
  });

  it('is disabled when it has had no success for WEBHOOK_DISABLE_AFTER_MS, its deliveries waiting for a re-enabling', async () => {
    const { apiKey, workspaceId } = await t.newKey();
    let healthy = false;
    const endpoint = await receiver(() => (healthy ? 200 : 502));
    const hook = await createWebhook(apiKey, { url: endpoint.url, eventTypes: ['*'] });
    await start({ retryBaseMs: 5, retryMaxDelayMs: 20, retryWindowMs: 120_000, disableAfterMs: 300, disableFailures: 3, timeoutMs: 5_000 });
    try {
      const ids = await workspaceEvents(t.db.pool, workspaceId, 3);
      await dispatchAll();
      let webhook: Record<string, unknown> = {};
      for (let i = 0; i < 1500 && webhook.enabled !== false; i++) {
        webhook = (await t.rest('GET', `/webhooks/${hook.id}`, { key: apiKey })).body.data;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(webhook).toMatchObject({ enabled: false, disabledReason: expect.stringContaining('(the last: HTTP 502)') });
      expect((await deliveries(apiKey, hook.id, '?status=pending')).pagination.total).toBe(3);
      // Re-enabled once it is healthy again: what waited goes out at once, in order.
      healthy = true;
      await t.rest('PATCH', `/webhooks/${hook.id}`, { key: apiKey, body: { enabled: true } });
      await endpoint.waitFor(() => endpoint.accepted().length >= 3);
      expect(idsOf(endpoint.accepted())).toEqual(ids);
    } finally {
      await start();
    }
  });
});
