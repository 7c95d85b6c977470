import { Prisma } from '../../../generated/prisma/client.js';
import type { SortOrderValue } from '../../shared/enums.js';
import type { OrderKey } from '../../shared/id-page.js';
import { tsQuery } from '../../shared/text-search.js';
import { DAYS_RUNNING, REACH_COLUMN } from './conditions.js';
import { rankDeltaOver } from './page-conditions.js';
import type { AdFilter, AdSort } from './search.js';

const sql = Prisma.sql;

/**
 * The text rank of a relevance sort (ts_rank of the ad copy, or of the page name for a brand search: how often
 * the query's words occur), or null when the list is not sorted by a text rank.
 */
export function textRank(filter: AdFilter, sort: AdSort): Prisma.Sql | null {
  if (sort.sortBy !== 'relevance' && sort.sortBy !== 'relevanceScore') return null;
  if (!filter.search || (filter.search.type !== 'adCopy' && filter.search.type !== 'brand')) return null;
  return sql`ts_rank(${filter.search.type === 'brand' ? sql`v."searchName"` : sql`a."searchText"`}, ${tsQuery(filter.search)})`;
}

/** The list's order after the text rank (textRank); its last key is the id, so pages never overlap. */
export function orderBy(sort: AdSort): OrderKey[] {
  // Nulls last; a NOT NULL column says plain ASC/DESC, which its B-tree index serves in either direction.
  const direction = (fallback: SortOrderValue, nullable: boolean): OrderKey['direction'] =>
    (sort.order ?? fallback) === 'asc' ? (nullable ? 'ASC NULLS LAST' : 'ASC') : nullable ? 'DESC NULLS LAST' : 'DESC';
  const byId: OrderKey = { key: sql`a."id"`, direction: 'ASC' };
  let key: Prisma.Sql;
  let fallback: SortOrderValue = 'desc';
  let nullable = false;
  switch (sort.sortBy) {
    case 'relevance':
    case 'relevanceScore':
      // Relevance is always descending: the text rank, then reach (reach alone without a scored text query).
      return [{ key: sql`a."reach"`, direction: 'DESC' }, byId];
    case 'newest': key = sql`a."firstSeenAt"`; break;
    case 'createdAt': key = sql`a."createdAt"`; break;
    case 'longestRunning': key = DAYS_RUNNING; nullable = true; break;
    case 'mostDuplicates': key = sql`a."duplicates"`; break;
    case 'reach': key = REACH_COLUMN[sort.reachPeriod ?? 'total']; break;
    case 'reachDelta1d': key = REACH_COLUMN.last24h; break;
    case 'reachDelta7d': key = REACH_COLUMN.last7d; break;
    case 'reachDelta30d': key = REACH_COLUMN.last30d; break;
    case 'rankDelta7d': key = sql`a."rankDelta"`; nullable = true; break;
    case 'rankDelta14d': key = rankDeltaOver(14); nullable = true; break;
    case 'rankDelta30d': key = rankDeltaOver(30); nullable = true; break;
    case 'adOrder': key = sql`a."positionInPage"`; fallback = 'asc'; nullable = true; break;
  }
  return [{ key, direction: direction(fallback, nullable) }, byId];
}
