import type pg from 'pg';
import { Prisma } from '../../../generated/prisma/client.js';
import { findComputedPage, offsetOf, type PageRequest } from '../../shared/list.js';
import { groupRow, groupShows, orderOf, type GroupPage, type GroupSort, type GroupStatementRow } from './aggregates.js';
import { countsTotal, scopeSelect, type AnalyticsScope } from './scope.js';

// The workspace's hooks, ad copies and landing pages over all the tracked brands' ads, read from the groups
// precomputed per page ("advertiser_ad_groups", migration 0021, recomputed by refreshAdGroups when market data is
// loaded or imported): each brand's first offset + limit groups in the requested order (an index scan per brand),
// merged, and the total summed from the per-page counts. The same rows as groupPage without a window, at a cost
// that does not grow with the brands' ads. Its text is fixed for a kind, sort and order (and whether brandtrackers or
// folders are named), and its plan the same for every workspace (an index scan per brand): a prepared statement on the
// pool, which saves planning it on every call. findComputedPage pages them, its total the summed counts (the rows it
// pages are only each brand's first ones), the page's rows joined to what they show as groupPage's are.

const sql = Prisma.sql;

export type StoredGroupKind = 'hook' | 'adCopy' | 'landingPage';

const COUNT_COLUMNS: Record<StoredGroupKind, Prisma.Sql> = {
  hook: Prisma.raw('n."hookGroups"'),
  adCopy: Prisma.raw('n."adCopyGroups"'),
  landingPage: Prisma.raw('n."landingPageGroups"'),
};

/** Days running of the group's longest-running ad, now (daysRunningSql's rule: active ads run until now()). */
const LONGEST_RUNNING = sql`greatest(c."inactiveLongestRunning", floor(extract(epoch FROM now() - c."activeSince") / 86400)::int)`;

const sortKey = (sort: GroupSort) => (sort === 'longestRunning' ? LONGEST_RUNNING : Prisma.raw(`c."${sort}"`));

export type StoredGroupQuery = { scope: AnalyticsScope; kind: StoredGroupKind; euOnly: boolean; sort: GroupSort; order: 'asc' | 'desc'; page: PageRequest };

export async function storedGroupPage(pool: pg.Pool, query: StoredGroupQuery): Promise<GroupPage> {
  const direction = Prisma.raw(query.order === 'asc' ? 'ASC' : 'DESC');
  const found = await findComputedPage<Omit<GroupStatementRow, 'totalImpressions'> & { totalImpressions: string }>(pool, {
    with: sql`s AS (${scopeSelect(query.scope)})`,
    rows: sql`
      SELECT s."brandtrackerId", b.*
      FROM s CROSS JOIN LATERAL (
        SELECT c."key", c."usageCount", c."activeAdsCount", ${LONGEST_RUNNING} AS "longestRunning", c."totalImpressions", c."firstUsedAt",
               c."lastUsedAt", c."sampleAdId"
        FROM "advertiser_ad_groups" c
        WHERE c."advertiserId" = s."pageId" AND c."kind" = ${query.kind} AND c."euOnly" = ${query.euOnly}
        ORDER BY ${sortKey(query.sort)} ${direction}, c."keyRank"
        LIMIT ${offsetOf(query.page) + query.page.limit}
      ) b`,
    order: (prefix) => orderOf(query.sort, query.order, prefix),
    total: countsTotal(COUNT_COLUMNS[query.kind], query.euOnly),
    after: groupShows(query.kind),
    page: query.page,
    prepared: true,
  });
  // pg reads a bigint as a string.
  return { data: found.data.map((row) => groupRow({ ...row, totalImpressions: BigInt(row.totalImpressions) })), pagination: found.pagination };
}
