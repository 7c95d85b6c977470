import { expect } from 'vitest';
import type { HttpResult } from '../support/app.js';

// The envelope cases of a brand's changes for test/rest/envelopes.test.ts: one call per route on the scenario's
// tracked page, its shop and its brandtracker; `{ requestId, data }`, the data's keys in order, and every section's.

type Case = { path: string; check: (res: HttpResult) => void };

const SECTIONS = [
  'adsStarted', 'adsStopped', 'copyChanges', 'hookChanges', 'landingPageChanges', 'newLandingPages', 'newProducts',
  'priceChanges', 'stockChanges', 'rankMoves', 'appsInstalled', 'appsRemoved',
];
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

const changes = ({ body }: HttpResult) => {
  expect(Object.keys(body)).toEqual(['requestId', 'data']);
  expect(Object.keys(body.data)).toEqual(['brandtrackerId', 'advertiserIds', 'shopIds', 'from', 'to', ...SECTIONS]);
  expect(body.data.from).toMatch(ISO);
  expect(body.data.to).toMatch(ISO);
  for (const section of SECTIONS) expect(Object.keys(body.data[section])).toEqual(['total', 'hasMore', 'items']);
};

export function brandChangeCases(ids: { brandtrackerId: string; advertiserId: string; shopId: string }): Record<string, Case> {
  return {
    'GET /brandtrackers/:brandtrackerId/changes': { path: `/brandtrackers/${ids.brandtrackerId}/changes`, check: changes },
    'GET /advertisers/:advertiserId/changes': { path: `/advertisers/${ids.advertiserId}/changes?from=2026-01-01&to=2026-12-31`, check: changes },
    'GET /shops/:shopId/changes': { path: `/shops/${ids.shopId}/changes?to=2026-01-01`, check: changes },
  };
}
