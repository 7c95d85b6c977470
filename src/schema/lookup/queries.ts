import type pg from 'pg';
import { z } from 'zod';
import type { Prisma } from '../../generated/prisma/client.js';
import { builder } from '../builder.js';
import { lookupSource, termsOf, type LookupRow } from './sql.js';
import { timedPool } from './timed-pool.js';
import { LOOKUP_TYPES, LookupPage, LookupTypeFilter, type LookupResult, type LookupType, type LookupWarning } from './types.js';

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

builder.queryFields((t) => ({
  lookup: t.field({
    type: LookupPage,
    nullable: true,
    authScopes: { workspace: true },
    description:
      'Resolve a brand name, shop domain or URL, Facebook page id or Instagram handle to the brandtrackers of this workspace, advertisers and shops (GET /v1/lookup). ' +
      'Exact matches come before fuzzy name matches.',
    args: {
      q: t.arg.string({ required: true, validate: z.string().trim().min(2).max(200) }),
      type: t.arg({ type: LookupTypeFilter, defaultValue: 'auto' }),
      limit: t.arg.int({ defaultValue: 10, description: 'Results, 1..10 (default 10).', validate: z.number().int().min(1).max(10) }),
    },
    resolve: async (_root, args, context) => {
      const { workspace } = await context.principal();
      const type = args.type ?? 'auto';
      const limit = args.limit ?? 10;
      const terms = termsOf(args.q);
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
    },
  }),
}));
