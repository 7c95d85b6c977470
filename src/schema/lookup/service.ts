import type pg from 'pg';
import type { Context } from '../../context.js';
import { timedPool } from '../../db/timed-pool.js';
import type { Prisma } from '../../generated/prisma/client.js';
import { lookupSource, termsOf, type LookupRow } from './service/sources.js';
import { LOOKUP_TYPES, type LookupMeta, type LookupResult, type LookupType, type LookupWarning } from './types.js';

// The lookup domain's public face and the home of its SQL: GET /v1/lookup runs one statement per source
// (service/sources.ts) on a pool whose statements time out (src/db/timed-pool.ts); GET /v1/lookup/facebook-shop
// reads a page's shops or a shop's pages (service/facebook-shop.ts).

export { pagesOfShop, shopsOfPage, type PageEntry, type ShopEntry } from './service/facebook-shop.js';

/** How long one source may take; past it the others still answer and the response says it is partial. */
export const SOURCE_TIMEOUT_MS = 2000;
const QUERY_CANCELED = '57014';

/** Runs one source's statement on the timed pool; null when it ran out of time. */
async function withTimeout(pool: pg.Pool, statement: Prisma.Sql): Promise<LookupRow[] | null> {
  try {
    return (await pool.query<LookupRow>(statement.text, statement.values as unknown[])).rows;
  } catch (error) {
    if ((error as { code?: string }).code === QUERY_CANCELED) return null;
    throw error;
  }
}

function resultOf(type: LookupType, row: LookupRow): LookupResult {
  return {
    type,
    matchType: row.exact ? 'exact' : 'fuzzy',
    matchField: row.field,
    score: Math.round(Number(row.score) * 1000) / 1000,
    brandtracker: row.brandtrackerId ? { id: row.brandtrackerId, name: row.brandtrackerName!, facebookPageId: row.brandtrackerPageId } : null,
    advertiser: row.advertiserId ? { id: row.advertiserId, name: row.advertiserName!, facebookPageId: row.advertiserId } : null,
    shop: row.shopId ? { id: row.shopId, domain: row.shopDomain!, name: row.shopName! } : null,
    signals: {
      activeAds: row.liveAdsCount,
      reach30d: row.reach30d === null ? null : BigInt(row.reach30d),
      totalReach: row.totalReach === null ? null : BigInt(row.totalReach),
      monthlyVisits: row.monthlyVisits,
      workspaceAddedAt: row.addedAt,
    },
  };
}

const TYPE_ORDER: Record<LookupType, number> = { brandtracker: 0, advertiser: 1, shop: 2 };

/** Exact matches first, then by score; ties: the workspace's own brandtrackers, then advertisers, then shops. */
const byRelevance = (a: LookupResult, b: LookupResult) =>
  Number(b.matchType === 'exact') - Number(a.matchType === 'exact') || b.score - a.score || TYPE_ORDER[a.type] - TYPE_ORDER[b.type];

/** GET /v1/lookup: the brandtrackers of the workspace, advertisers and shops that `q` names, best first. */
export async function lookup(context: Context, q: string, type: 'auto' | LookupType, limit: number): Promise<{ data: LookupResult[]; meta: LookupMeta }> {
  const { workspace } = await context.principal();
  const terms = termsOf(q);
  const sources = type === 'auto' ? LOOKUP_TYPES : [type];
  const pool = timedPool(context.pool, SOURCE_TIMEOUT_MS);
  const answers = await Promise.all(sources.map((source) => withTimeout(pool, lookupSource(source, terms, limit, workspace.id))));
  const warnings: LookupWarning[] = [];
  const results: LookupResult[] = [];
  answers.forEach((rows, index) => {
    const source = sources[index];
    if (rows === null) warnings.push({ code: 'upstream_timeout', type: source, message: `The ${source} lookup took longer than ${SOURCE_TIMEOUT_MS} ms; its matches are missing.` });
    else results.push(...rows.map((row) => resultOf(source, row)));
  });
  const data = results.sort(byRelevance).slice(0, limit);
  return { data, meta: { q: terms.name, type, limit, returned: data.length, partial: warnings.length > 0, warnings } };
}
