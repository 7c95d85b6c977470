import { getIntrospectionQuery } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GRAPHQL_LIMITS } from '../../src/plugins/use-graphql-protection.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { withStatements } from '../support/statements.js';
import { adsScenario } from '../ads/scenario.js';

let t: TestApp;
let key: string;
beforeAll(async () => {
  t = await createTestApp(adsScenario);
  key = (await t.newKey()).apiKey;
});
afterAll(() => t?.close());

/** Sends the document and returns the answer plus how many SQL statements ran meanwhile. */
async function send(query: string) {
  const [res, statements] = await withStatements(() => t.graphql(query, {}, key));
  return { ...res, statements: statements.length };
}

function nested(depth: number): string {
  let selection = 'name';
  for (let i = 0; i < depth; i++) selection = i % 2 === 0 ? `type { ${selection} }` : `fields { ${selection} }`;
  return `{ __type(name: "Query") { ${selection} } }`;
}

describe('limits on /graphql documents', () => {
  it.each([
    ['depth', nested(GRAPHQL_LIMITS.maxDepth + 2), 'maxDepth'],
    ['aliases', `{ ${Array.from({ length: GRAPHQL_LIMITS.maxAliases + 1 }, (_, i) => `a${i}: me { workspace { id } }`).join(' ')} }`, 'maxAliases'],
    ['tokens', `{ me { ${'workspace { id } '.repeat(GRAPHQL_LIMITS.maxTokens / 4)} } }`, 'maxTokens'],
    [
      'cost',
      `{ ads(search: "summer") { data { ...C } } }
       fragment A on PublicAd { id status platform createdAt firstSeenAt daysRunning collationId lastSeenAt }
       fragment B on PublicAd { ...A ...A ...A ...A ...A ...A ...A ...A ...A ...A }
       fragment C on PublicAd { ...B ...B ...B ...B ...B ...B ...B ...B ...B ...B ...B ...B ...B ...B ...B ...B ...B ...B ...B ...B }`,
      'costLimit',
    ],
  ])('a %s bomb is rejected as validation_error before any resolver runs', async (_name, query, rule) => {
    const res = await send(query);
    expect(res.body.data).toBeUndefined();
    expect(res.body.errors[0].extensions).toMatchObject({ code: 'validation_error', details: { rule } });
    expect(res.statements).toBe(0);
  });

  it('lets legitimate documents through: GraphiQL introspection and a full ad detail page', async () => {
    const introspection = await send(getIntrospectionQuery());
    expect(introspection.status).toBe(200);
    expect(introspection.body.data.__schema.queryType.name).toBe('Query');
    const page = await t.graphql(
      `{ ads(search: "summer", limit: 25) { pagination { total } data { id status media { type mediaUrl } advertiser { name liveAdsCount }
           content { title body } metrics { reach aggregatedReach estimatedSpend duplicates } audience { targetedCountries }
           rank { currentRank } flags { isEuAd } } }
         ad(adId: "facebook_9001") { id shops { domain } pageAnalytics { impressionsHistory { date totalImpressions } } creativeAnalysis { hook { text } } transcript { segments { start text } } } }`,
      {},
      key,
    );
    expect(page.status).toBe(200);
    expect(page.body.errors).toBeUndefined();
    expect(page.body.data.ad.creativeAnalysis.hook.text).toBe('Meet the glow serum.');
  });

  it('gives no field suggestions', async () => {
    const res = await send('{ me { workspac { id } } }');
    expect(res.body.errors[0].extensions.code).toBe('validation_error');
    expect(JSON.stringify(res.body)).not.toMatch(/did you mean/i);
    expect(res.statements).toBe(0);
  });

  it('never applies to the REST routes, whose generated documents select every field', async () => {
    const res = await t.rest('GET', '/ads/facebook_9001', { key });
    expect(res.status).toBe(200);
    expect(res.body.data.pageAnalytics.impressionsHistory).toHaveLength(2);
  });
});
