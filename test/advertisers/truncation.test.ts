import { afterAll, beforeAll, expect, it } from 'vitest';
import { STAGE_CAP } from '../../src/schema/advertisers/service/search.js';
import { searchBounds } from '../../src/schema/shared/list.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { idsOf } from '../support/discovery-helpers.js';

// A search over ads collects at most STAGE_CAP advertisers; past that the list is cut and meta.isTruncated says so.
// The market: STAGE_CAP + 5 pages, each with one ad about zebras; the first ten pages' ads are about lions too.

let t: TestApp;
let key: string;
beforeAll(async () => {
  t = await createTestApp(async ({ pool }) => {
    await pool.query(`INSERT INTO "advertisers" ("id", "name") SELECT (3000000000000000 + n)::text, 'Page ' || n FROM generate_series(1, $1::int) n`, [STAGE_CAP + 5]);
    await pool.query(
      `INSERT INTO "ads" ("id", "collationId", "status", "createdAt", "firstSeenAt", "lastSeenAt", "mediaType", "body", "targetedCountries", "advertiserId")
       SELECT 'facebook_' || n, 'col_' || n, 'active', now(), now(), now(), 'image', CASE WHEN n <= 10 THEN 'zebra and lion' ELSE 'zebra' END, '{}', (3000000000000000 + n)::text
       FROM generate_series(1, $1::int) n`,
      [STAGE_CAP + 5],
    );
  });
  ({ apiKey: key } = await t.newKey());
});
afterAll(() => t?.close());

const query = (body: unknown) => t.rest('POST', '/advertisers/query', { key, body });

it('a search over ads that matches more advertisers than it collects is cut, and says so', async () => {
  const res = await query({ searchType: 'adCopy', search: ['zebra'], limit: 5 });
  expect(idsOf(res)).toHaveLength(5);
  expect(res.body.meta).toEqual({ isTruncated: true, totalRelation: 'gte' });
  // The list counts its total up to its cap (below STAGE_CAP): a lower bound either way.
  expect(res.body.pagination.total).toBe(Math.min(STAGE_CAP, searchBounds.totalCap));
});

it('one that matches fewer is whole', async () => {
  const res = await query({ searchType: 'adCopy', search: ['lion'], limit: 20 });
  expect(idsOf(res)).toHaveLength(10);
  expect(res.body.meta).toEqual({ isTruncated: false, totalRelation: 'eq' });
  expect(res.body.pagination.total).toBe(10);
});
