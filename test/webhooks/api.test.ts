import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createKey, createUser } from '../../src/auth/admin.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { expectNotFound, expectViolation, graphqlData } from '../support/assertions.js';
import { startReceiver, verified, type Receiver } from './helpers.js';

// Webhooks as a workspace manages them, on REST and GraphQL: the secret shown once, the list and detail without it,
// changes, deletion, rotation, the test message, validation in the specification's envelope, the SSRF guard on the
// URL, the writer role, and another workspace's webhook answered as a missing one with nothing changed.

let t: TestApp;
let a: { apiKey: string; workspaceId: string; slug: string };
let b: { apiKey: string; workspaceId: string };
let reader: string;
let receiver: Receiver;

beforeAll(async () => {
  process.env.WEBHOOK_ALLOW_PRIVATE = 'true';
  t = await createTestApp();
  a = await t.newKey();
  b = await t.newKey();
  const { userId } = await createUser(t.db.prisma, { workspace: a.slug, name: 'Rita Reader', role: 'readonly' });
  reader = (await createKey(t.db.prisma, { workspace: a.slug, access: 'delegated_user', user: userId })).apiKey;
  receiver = await startReceiver();
});
afterEach(() => {
  process.env.WEBHOOK_ALLOW_PRIVATE = 'true';
});
afterAll(async () => {
  delete process.env.WEBHOOK_ALLOW_PRIVATE;
  await receiver?.close();
  await t?.close();
});

const create = (key: string, body: Record<string, unknown>) => t.rest('POST', '/webhooks', { key, body });

describe('creating, reading and changing a webhook', () => {
  it('shows the secret once (201, whsec_), never on GET, on the list or in the audit', async () => {
    const res = await create(a.apiKey, { url: receiver.url, eventTypes: ['ad.created', 'ad.stopped'], description: 'Competitor launches', filter: { advertiserIds: ['555'] } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const made = res.body.data;
    expect(made).toMatchObject({
      url: receiver.url, eventTypes: ['ad.created', 'ad.stopped'], description: 'Competitor launches', enabled: true,
      filter: { advertiserIds: ['555'], brandtrackerIds: null, shopIds: null }, consecutiveFailures: 0, previousSecretExpiresAt: null,
    });
    expect(made.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const detail = await t.rest('GET', `/webhooks/${made.id}`, { key: a.apiKey });
    expect(detail.status).toBe(200);
    expect(detail.body.data).toEqual(Object.fromEntries(Object.entries(made).filter(([key]) => key !== 'secret')));
    const list = await t.rest('GET', '/webhooks', { key: a.apiKey });
    expect(list.body.pagination).toMatchObject({ page: 1, limit: 25, total: 1 });
    expect(list.body.data.map((w: { id: string }) => w.id)).toEqual([made.id]);
    for (const text of [JSON.stringify(detail.body), JSON.stringify(list.body)]) expect(text).not.toContain(made.secret);
    const { rows: audits } = await t.db.pool.query(`SELECT "before", "after" FROM "audit_events" a WHERE a."workspaceId" = $1::uuid AND "entityType" = 'webhook'`, [a.workspaceId]);
    expect(audits.length).toBeGreaterThan(0);
    expect(JSON.stringify(audits)).not.toContain(made.secret.slice(6));
  });

  it('answers the same on GraphQL, and the secret only on the creation', async () => {
    const data = await graphqlData(t, a.apiKey, `mutation { webhookCreate(url: "${receiver.url}", eventTypes: ["*"]) { id secret eventTypes filter { shopIds } } }`);
    expect(data.webhookCreate).toMatchObject({ eventTypes: ['*'], filter: null, secret: expect.stringMatching(/^whsec_/) });
    const read = await graphqlData(t, a.apiKey, `query($id: String!) { webhook(webhookId: $id) { id eventTypes } }`, { id: data.webhookCreate.id });
    expect(read.webhook).toEqual({ id: data.webhookCreate.id, eventTypes: ['*'] });
    const noSecret = await t.graphql(`query($id: String!) { webhook(webhookId: $id) { secret } }`, { id: data.webhookCreate.id }, a.apiKey);
    expect(noSecret.body.errors?.[0]?.message).toMatch(/Cannot query field "secret"/);
  });

  it('changes what is sent, clears the filter and description with null, and disables and re-enables', async () => {
    const made = (await create(a.apiKey, { url: receiver.url, eventTypes: ['ad.created'], description: 'x', filter: { shopIds: ['5a0e0000-0000-4000-8000-000000000001'] } })).body.data;
    const changed = await t.rest('PATCH', `/webhooks/${made.id}`, { key: a.apiKey, body: { eventTypes: ['product.price_changed', 'product.price_changed'], filter: null, description: null } });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body.data).toMatchObject({ eventTypes: ['product.price_changed'], filter: null, description: null, enabled: true });
    const off = await t.rest('PATCH', `/webhooks/${made.id}`, { key: a.apiKey, body: { enabled: false } });
    expect(off.body.data).toMatchObject({ enabled: false, disabledReason: 'disabled by the workspace', disabledAt: expect.any(String) });
    const on = await t.rest('PATCH', `/webhooks/${made.id}`, { key: a.apiKey, body: { enabled: true } });
    expect(on.body.data).toMatchObject({ enabled: true, disabledReason: null, disabledAt: null, consecutiveFailures: 0 });
  });

  it('rotates the secret: a new one shown once, the previous one signing until the overlap ends', async () => {
    const made = (await create(a.apiKey, { url: receiver.url, eventTypes: ['*'] })).body.data;
    const rotated = await t.rest('POST', `/webhooks/${made.id}/rotate-secret`, { key: a.apiKey });
    expect(rotated.status, JSON.stringify(rotated.body)).toBe(200);
    expect(rotated.body.data.secret).toMatch(/^whsec_/);
    expect(rotated.body.data.secret).not.toBe(made.secret);
    const hours = (Date.parse(rotated.body.data.previousSecretExpiresAt) - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(23.9);
    expect(hours).toBeLessThanOrEqual(24);
    // The test message carries both signatures: each secret verifies it.
    const test = await t.rest('POST', `/webhooks/${made.id}/test`, { key: a.apiKey });
    expect(test.body.data).toMatchObject({ delivered: true, responseStatus: 200, error: null, messageId: expect.stringMatching(/^msg_test_/) });
    const receipt = receiver.receipts.find((r) => r.headers['webhook-id'] === test.body.data.messageId)!;
    expect(String(receipt.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(verified(rotated.body.data.secret, receipt)).toMatchObject({ type: 'webhook.test', data: { webhookId: made.id } });
    expect(verified(made.secret, receipt).type).toBe('webhook.test');
    expect(() => verified(`whsec_${Buffer.from('another secret of 32 bytes......').toString('base64')}`, receipt)).toThrow(/No matching signature/);
  });

  it('deletes a webhook: gone from GET, and deleting it again is a 404', async () => {
    const made = (await create(a.apiKey, { url: receiver.url, eventTypes: ['*'] })).body.data;
    const deleted = await t.rest('DELETE', `/webhooks/${made.id}`, { key: a.apiKey });
    expect(deleted.body.data).toEqual({ id: made.id, deleted: true, cancelledDeliveries: 0 });
    expectNotFound(await t.rest('GET', `/webhooks/${made.id}`, { key: a.apiKey }));
    expectNotFound(await t.rest('DELETE', `/webhooks/${made.id}`, { key: a.apiKey }));
  });

  it('reports a test message the endpoint refused', async () => {
    const refusing = await startReceiver(() => 503);
    try {
      const made = (await create(a.apiKey, { url: refusing.url, eventTypes: ['*'] })).body.data;
      const test = await t.rest('POST', `/webhooks/${made.id}/test`, { key: a.apiKey });
      expect(test.body.data).toMatchObject({ delivered: false, responseStatus: 503, error: 'HTTP 503' });
    } finally {
      await refusing.close();
    }
  });
});

describe('validation, in the specification envelope', () => {
  it('refuses unknown event types, an empty list, a bad filter and a long description', async () => {
    expectViolation(await create(a.apiKey, { url: receiver.url, eventTypes: ['ad.exploded'] }), 'body.eventTypes', /eventTypes must be one of the following values: ad.created, .*, \*/);
    expectViolation(await create(a.apiKey, { url: receiver.url, eventTypes: [] }), 'body.eventTypes', /longer than or equal to 1/);
    expectViolation(await create(a.apiKey, { url: receiver.url, eventTypes: ['*'], filter: { shops: ['x'] } }), 'body.filter', /Unrecognized key/);
    expectViolation(await create(a.apiKey, { url: receiver.url, eventTypes: ['*'], filter: { shopIds: ['not-a-uuid'] } }), 'body.filter', /filter.shopIds must hold shop ids/);
    expectViolation(await create(a.apiKey, { url: receiver.url, eventTypes: ['*'], filter: { advertiserIds: [] } }), 'body.filter', /longer than or equal to 1/);
    expectViolation(await create(a.apiKey, { url: receiver.url, eventTypes: ['*'], filter: 'all' }), 'body.filter');
    expectViolation(await create(a.apiKey, { url: receiver.url, eventTypes: ['*'], description: 'x'.repeat(501) }), 'body.description', /shorter than or equal to 500/);
    expectViolation(await create(a.apiKey, { eventTypes: ['*'] }), 'body.url');
    expectViolation(await t.rest('GET', '/webhooks/not-a-uuid', { key: a.apiKey }), 'path.webhookId', ['webhookId must be a UUID']);
    expectViolation(await t.rest('GET', '/webhooks?limit=101', { key: a.apiKey }), 'query-string.limit');
    expectViolation(
      await t.rest('POST', `/webhooks/${'5a0e0000-0000-4000-8000-000000000001'}/deliveries/abc/replay`, { key: a.apiKey }),
      'path.deliveryId',
      ['deliveryId must be a delivery id (a positive whole number)'],
    );
    const { rows } = await t.db.pool.query(`SELECT count(*)::int AS n FROM "webhooks" w WHERE w."workspaceId" = $1::uuid AND w."url" = $2`, [b.workspaceId, receiver.url]);
    expect(rows[0].n).toBe(0);
  });

  it('refuses a URL that is not https, carries credentials or is not absolute', async () => {
    process.env.WEBHOOK_ALLOW_PRIVATE = 'false';
    expectViolation(await create(a.apiKey, { url: 'http://hooks.example.com/x', eventTypes: ['*'] }), 'body.url', ['url must use https (http needs WEBHOOK_ALLOW_PRIVATE=true)']);
    expectViolation(await create(a.apiKey, { url: 'https://user:pw@hooks.example.com/x', eventTypes: ['*'] }), 'body.url', ['url must not carry credentials']);
    expectViolation(await create(a.apiKey, { url: '/relative', eventTypes: ['*'] }), 'body.url', ['url must be an absolute https URL']);
    expectViolation(await create(a.apiKey, { url: `https://hooks.example.com/${'x'.repeat(2048)}`, eventTypes: ['*'] }), 'body.url', /shorter than or equal to 2048/);
  });
});

describe('the SSRF guard of image search, on the URL', () => {
  it('refuses private, loopback and link-local addresses without WEBHOOK_ALLOW_PRIVATE, literal or resolved', async () => {
    process.env.WEBHOOK_ALLOW_PRIVATE = 'false';
    const before = (await t.rest('GET', '/webhooks', { key: a.apiKey })).body.pagination.total;
    for (const url of ['https://127.0.0.1/hooks', 'https://10.1.2.3/x', 'https://169.254.169.254/latest', 'https://[::1]/x', 'https://[::ffff:192.168.0.1]/x']) {
      expectViolation(await create(a.apiKey, { url, eventTypes: ['*'] }), 'body.url', /url must point to a public address/);
    }
    expectViolation(await create(a.apiKey, { url: 'https://localhost:9/hooks', eventTypes: ['*'] }), 'body.url', /url must point to a public address \(localhost resolves to/);
    const made = (await t.graphql(`mutation { webhookCreate(url: "https://127.0.0.1/x", eventTypes: ["*"]) { id } }`, {}, a.apiKey)).body;
    expect(made.errors[0].extensions).toMatchObject({ code: 'validation_error' });
    expect((await t.rest('GET', '/webhooks', { key: a.apiKey })).body.pagination.total).toBe(before);
  });

  it('checks a changed URL too', async () => {
    const made = (await create(a.apiKey, { url: receiver.url, eventTypes: ['*'] })).body.data;
    process.env.WEBHOOK_ALLOW_PRIVATE = 'false';
    expectViolation(await t.rest('PATCH', `/webhooks/${made.id}`, { key: a.apiKey, body: { url: 'https://192.168.1.10/x' } }), 'body.url', /public address/);
    process.env.WEBHOOK_ALLOW_PRIVATE = 'true';
    expect((await t.rest('GET', `/webhooks/${made.id}`, { key: a.apiKey })).body.data.url).toBe(receiver.url);
  });
});

describe('access', () => {
  it('lets a reader read and refuses every write (403), changing nothing', async () => {
    const made = (await create(a.apiKey, { url: receiver.url, eventTypes: ['*'], description: 'kept' })).body.data;
    expect((await t.rest('GET', `/webhooks/${made.id}`, { key: reader })).status).toBe(200);
    expect((await t.rest('GET', `/webhooks/${made.id}/deliveries`, { key: reader })).status).toBe(200);
    const writes = [
      t.rest('POST', '/webhooks', { key: reader, body: { url: receiver.url, eventTypes: ['*'] } }),
      t.rest('PATCH', `/webhooks/${made.id}`, { key: reader, body: { description: 'changed' } }),
      t.rest('DELETE', `/webhooks/${made.id}`, { key: reader }),
      t.rest('POST', `/webhooks/${made.id}/rotate-secret`, { key: reader }),
      t.rest('POST', `/webhooks/${made.id}/test`, { key: reader }),
      t.rest('POST', `/webhooks/${made.id}/deliveries/1/replay`, { key: reader }),
    ];
    for (const res of await Promise.all(writes)) {
      expect(res.status, JSON.stringify(res.body)).toBe(403);
      expect(res.body.error.code).toBe('forbidden');
    }
    expect((await t.rest('GET', `/webhooks/${made.id}`, { key: a.apiKey })).body.data).toMatchObject({ description: 'kept', updatedAt: made.updatedAt });
  });

  it("answers another workspace's webhook exactly as a missing one, and changes nothing", async () => {
    const made = (await create(a.apiKey, { url: receiver.url, eventTypes: ['*'], description: 'A only' })).body.data;
    const missing = '5a0e0000-0000-4000-8000-00000000dead';
    const calls: [string, (id: string) => string, Record<string, unknown>?][] = [
      ['GET', (id) => `/webhooks/${id}`],
      ['PATCH', (id) => `/webhooks/${id}`, { description: 'B was here', enabled: false }],
      ['POST', (id) => `/webhooks/${id}/rotate-secret`],
      ['POST', (id) => `/webhooks/${id}/test`],
      ['GET', (id) => `/webhooks/${id}/deliveries`],
      ['POST', (id) => `/webhooks/${id}/deliveries/1/replay`],
      ['DELETE', (id) => `/webhooks/${id}`],
    ];
    const sent = receiver.receipts.length;
    for (const [method, path, body] of calls) {
      const theirs = await t.rest(method, path(made.id), { key: b.apiKey, body });
      const none = await t.rest(method, path(missing), { key: b.apiKey, body });
      expectNotFound(theirs);
      expect({ ...theirs.body.error, requestId: null, message: theirs.body.error.message }).toEqual({ ...none.body.error, requestId: null });
    }
    expect(receiver.receipts.length).toBe(sent);
    const after = (await t.rest('GET', `/webhooks/${made.id}`, { key: a.apiKey })).body.data;
    expect(after).toEqual(Object.fromEntries(Object.entries(made).filter(([key]) => key !== 'secret')));
    expect((await t.rest('GET', '/webhooks', { key: b.apiKey })).body.data.map((w: { id: string }) => w.id)).not.toContain(made.id);
  });
});
