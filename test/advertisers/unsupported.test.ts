import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.js';
import { adsScenario } from '../ads/scenario.js';

// Issue #33: POST /v1/advertisers/query documents adsGrowth, pageReachGrowth and countryFilterMode; this server does
// not implement them yet, so each is refused by name (a 400 validation_error), never accepted and ignored.

let t: TestApp;
let key: string;
beforeAll(async () => {
  t = await createTestApp(adsScenario);
  key = (await t.newKey()).apiKey;
});
afterAll(() => t?.close());

const growth = { anyOf: [{ all: [{ period: 'last30d', operator: 'gte', value: 999999 }] }] };

describe('POST /v1/advertisers/query: documented filters this server does not support yet', () => {
  it.each([
    ['adsGrowth', growth],
    ['pageReachGrowth', growth],
    ['countryFilterMode', 'reach'],
    ['countryFilterMode', 'adCount'],
  ])('%s (%j) is a validation_error naming it', async (name, value) => {
    const res = await t.rest('POST', '/advertisers/query', { key, body: { [name]: value } });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('validation_error');
    expect(res.body.error.details.validationErrors).toEqual([{ field: `body.${name}`, location: 'body', expected: [`${name} is not supported by this server yet`] }]);
  });

  it('null is not sent: the list answers as without it', async () => {
    const plain = await t.rest('POST', '/advertisers/query', { key, body: {} });
    const withNulls = await t.rest('POST', '/advertisers/query', { key, body: { adsGrowth: null, pageReachGrowth: null, countryFilterMode: null } });
    expect(plain.status).toBe(200);
    expect(withNulls.status).toBe(200);
    expect(withNulls.body.data).toEqual(plain.body.data);
    expect(plain.body.data).toHaveLength(2);
  });

  it('GraphQL refuses them the same way', async () => {
    const res = await t.graphql('{ advertisersQuery(countryFilterMode: "reach") { data { id } } }', {}, key);
    expect(res.body.errors[0].extensions.code).toBe('validation_error');
    expect(res.body.errors[0].extensions.details.validationErrors).toEqual([{ field: 'countryFilterMode', location: 'argument', expected: ['countryFilterMode is not supported by this server yet'] }]);
  });
});
