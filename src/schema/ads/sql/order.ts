import { Prisma } from '../../../generated/prisma/client.js';
import type { SortOrderValue } from '../../shared/enums.js';
import type { OrderKey } from '../../shared/id-page.js';
import { tsQuery } from '../../shared/text-search.js';
import { DAYS_RUNNING, REACH_COLUMN } from './conditions.js';
import { rankDeltaOver } from './page-conditions.js';
import type { AdFilter, AdSort } from './search.js';

const sql = Prisma.sql;

/** The list's order; its last key is the id, so pages never overlap. */
export function orderBy(filter: AdFilter, sort: AdSort): OrderKey[] {
  const direction = (fallback: SortOrderValue) => ((sort.order ?? fallback) === 'asc' ? 'ASC NULLS LAST' : 'DESC NULLS LAST');
  const relevance = filter.search && (filter.search.type === 'adCopy' || filter.search.type === 'brand')
    ? sql`ts_rank(${filter.search.type === 'brand' ? sql`v."searchName"` : sql`a."searchText"`}, ${tsQuery(filter.search)})`
    : null;
  const byId: OrderKey = { key: sql`a."id"`, direction: 'ASC' };
  let key: Prisma.Sql;
  let fallback: SortOrderValue = 'desc';
  switch (sort.sortBy) {
    case 'relevance':
    case 'relevanceScore':
      // Relevance is always ranked descending; without a scored text query it falls back to reach.
      return [...(relevance ? [{ key: relevance, direction: 'DESC' } as const] : []), { key: sql`a."reach"`, direction: 'DESC' }, byId];
    case 'newest': key = sql`a."firstSeenAt"`; break;
    case 'createdAt': key = sql`a."createdAt"`; break;
    case 'longestRunning': key = DAYS_RUNNING; break;
    case 'mostDuplicates': key = sql`a."duplicates"`; break;
    case 'reach': key = REACH_COLUMN[sort.reachPeriod ?? 'total']; break;
    case 'reachDelta1d': key = REACH_COLUMN.last24h; break;
    case 'reachDelta7d': key = REACH_COLUMN.last7d; break;
    case 'reachDelta30d': key = REACH_COLUMN.last30d; break;
    case 'rankDelta7d': key = sql`a."rankDelta"`; break;
    case 'rankDelta14d': key = rankDeltaOver(14); break;
    case 'rankDelta30d': key = rankDeltaOver(30); break;
    case 'adOrder': key = sql`a."positionInPage"`; fallback = 'asc'; break;
  }
  return [{ key, direction: direction(fallback) }, byId];
}
