import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.js';
import { adsScenario } from '../ads/scenario.js';

// Idempotency-Key on every write (src/plugins/use-idempotency.ts) and the audit event every write records
// (src/schema/shared/audit.ts), through both surfaces, with the ads share as the write.

let t: TestApp;
let a: { apiKey: string; workspaceId: string };
beforeAll(async () => {
  t = await createTestApp(adsScenario);
  a = await t.newKey();
});
afterAll(() => t?.close());

const share = (adId: string, key: string | null, idempotencyKey?: string, body?: unknown) =>
  t.rest('POST', `/ads/${adId}/share`, { key, body, headers: idempotencyKey ? { 'idempotency-key': idempotencyKey } : {} });
const audits = (workspaceId: string) => t.db.prisma.auditEvent.findMany({ where: { workspaceId }, orderBy: { id: 'asc' } });

describe('audit events', () => {
  it('a first share writes one event with who and the state after; a repeat writes none', async () => {
    const { apiKey, workspaceId, credentialId } = await t.newKey();
    const first = await share('facebook_9001', apiKey);
    expect(first.status).toBe(200);
    await share('facebook_9001', apiKey);
    const events = await audits(workspaceId);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ action: 'ad.share', entityType: 'ad_share', entityId: first.body.data.id, credentialId, before: null, requestId: first.body.requestId });
    expect(events[0].after).toMatchObject({ adId: 'facebook_9001', slug: first.body.data.slug });
  });
});

describe('Idempotency-Key', () => {
  it('replays the first answer for the same key and request, without acting again', async () => {
    const first = await share('facebook_9003', a.apiKey, 'key-1');
    expect(first.status).toBe(200);
    const before = (await audits(a.workspaceId)).length;
    const again = await share('facebook_9003', a.apiKey, 'key-1');
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ ...first.body, requestId: again.headers.get('x-request-id') }); // the stored answer, with the replay's own requestId
    expect(again.body.requestId).not.toBe(first.body.requestId);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect((await audits(a.workspaceId)).length).toBe(before);
  });

  it('refuses the same key with another request, and keeps the first answer', async () => {
    await share('facebook_9004', a.apiKey, 'key-2');
    const other = await share('facebook_9001', a.apiKey, 'key-2');
    expect(other.status).toBe(400);
    expect(other.body.error).toMatchObject({ code: 'validation_error', details: { validationErrors: [{ field: 'header.Idempotency-Key', location: 'header' }] } });
    const body = await share('facebook_9004', a.apiKey, 'key-2', { note: 'extra' });
    expect(body.status).toBe(400); // a different body is another request
  });

  it('keys are per workspace', async () => {
    const b = await t.newKey();
    const mine = await share('facebook_9004', a.apiKey, 'shared-key');
    const theirs = await share('facebook_9004', b.apiKey, 'shared-key');
    expect(theirs.status).toBe(200);
    expect(theirs.body.data.id).not.toBe(mine.body.data.id);
    expect(theirs.headers.get('idempotent-replayed')).toBeNull();
  });

  it('refuses a malformed key before anything runs', async () => {
    const { apiKey, workspaceId } = await t.newKey();
    for (const key of ['x'.repeat(256), 'with space']) {
      const res = await share('facebook_9001', apiKey, key);
      expect(res.status).toBe(400);
      expect(res.body.error.details.validationErrors[0].field).toBe('header.Idempotency-Key');
    }
    expect(await audits(workspaceId)).toEqual([]);
    expect(await t.db.prisma.adShare.count({ where: { workspaceId } })).toBe(0);
  });

  it('keeps a not found (the answer to that request); an unauthenticated request has no workspace to keep it in', async () => {
    const missing = await share('facebook_1', a.apiKey, 'key-404');
    expect(missing.status).toBe(404);
    const again = await share('facebook_1', a.apiKey, 'key-404');
    expect(again.status).toBe(404);
    expect(again.headers.get('idempotent-replayed')).toBe('true'); // a 404 is the answer to that request
    const unauthenticated = await share('facebook_9001', 'mi_invalid', 'key-401');
    expect(unauthenticated.status).toBe(401);
  });

  it('works on GraphQL mutations the same way', async () => {
    const send = () =>
      t.app.fetch('http://api.test/graphql', {
        method: 'POST',
        headers: { authorization: `Bearer ${a.apiKey}`, 'content-type': 'application/json', 'idempotency-key': 'gql-1' },
        body: JSON.stringify({ query: 'mutation { adShare(adId: "facebook_9001") { id slug } }' }),
      });
    const first = await send();
    const firstBody = await first.json();
    expect(firstBody.data.adShare.id).toBeTruthy();
    const again = await send();
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await again.json()).toEqual(firstBody);
  });
});
