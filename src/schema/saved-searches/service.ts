import type pg from 'pg';
import type { Context } from '../../context.js';
import { recordEvents, type NewEvent } from '../../data/events.js';
import { notFound, validationError } from '../../errors.js';
import { Prisma, type PrismaClient } from '../../generated/prisma/client.js';
import { writeAudited } from '../shared/audit.js';
import { findRowsPage, tsQuery, type PageRequest, type TextSearch } from '../shared/list.js';
import { acrossWorkspaces } from '../../db/workspace-check.js';
import { inWorkspace } from '../shared/workspace.js';
import { asParamsError, listArguments, ListRunFailed, marketList, runList, runPrincipal, type Family, type RunServices } from '../shared/market-lists.js';
import { adFacts, lexemesOf, type AdProfile, type RowFacts } from './service/prefilter.js';
import { envNumber } from '../../config.js';

// A workspace's saved searches (create, list, read, change, delete) and the statements of their consumer
// (src/events/saved-searches.ts): the searches of the lists a batch of events changed, the rows they held among the
// changed ones, and the rows that entered or left with their events. Every statement of the routes names the
// caller's workspace: another workspace's saved search is answered as a missing one, before anything changes. Every
// change is audited.

const sql = Prisma.sql;

/** SAVED_SEARCH_MAX_MATCHES (default 10,000): the most rows a saved search may hold when it is made or changed. Tests lower it. */
export const savedSearchBounds = { maxMatches: envNumber('SAVED_SEARCH_MAX_MATCHES', 10_000, { min: 1 }) };

export type SavedSearchView = {
  id: string;
  name: string;
  method: string;
  path: string;
  params: Record<string, unknown>;
  notifyLeft: boolean;
  /** The rows it holds now. */
  matches: number;
  createdAt: Date;
  updatedAt: Date;
};

export type SavedSearchInput = { name: string; method: string; path: string; params: Record<string, unknown>; notifyLeft?: boolean | null };
export type SavedSearchChange = { name?: string | null; params?: Record<string, unknown> | null; notifyLeft?: boolean | null };

const VIEW_COLUMNS = sql`s."id", s."name", s."method", s."path", s."params", s."notifyLeft", s."createdAt", s."updatedAt",
  (SELECT count(*)::int FROM "saved_search_matches" m WHERE m."savedSearchId" = s."id") AS "matches"`;

const workspaceOf = async (context: Context) => (await context.principal()).workspace;

const runServices = (context: Context): RunServices => ({
  prisma: context.prisma,
  pool: context.pool,
  ledger: context.ledger,
  authenticate: context.authenticate,
  rateLimiter: context.rateLimiter,
  publicBaseUrl: context.publicBaseUrl,
  startedAt: context.startedAt,
});

/** Keys in order at every depth: two params that mean the same compare equal. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1))) : v);
}

/**
 * The rows the search holds now: the list run through its route as the workspace, every match up to the bound, in one
 * statement. The route's refusal is the search's (its parameters named `params.<name>`); more rows than the bound are
 * refused: an alert on that many rows is not an alert.
 */
async function baseline(context: Context, method: string, path: string, params: Record<string, unknown>): Promise<string[]> {
  const list = await marketList(method, path);
  const values = listArguments(list, params, 'a saved search');
  const upTo = savedSearchBounds.maxMatches;
  try {
    return await runList(list, values, runServices(context), runPrincipal(await workspaceOf(context)), { upTo });
  } catch (error) {
    if (!(error instanceof ListRunFailed)) throw error;
    if (error.failure.kind === 'refused') throw asParamsError(error.failure.error);
    throw validationError([{
      argument: 'params',
      expected: [`params match more than ${upTo.toLocaleString('en')} rows of ${list.name} (SAVED_SEARCH_MAX_MATCHES): narrow the search, an alert on that many rows is not an alert`],
    }]);
  }
}

async function viewOf(db: PrismaClient, workspaceId: string, id: string): Promise<SavedSearchView | null> {
  const [row] = await db.$queryRaw<SavedSearchView[]>(sql`SELECT ${VIEW_COLUMNS} FROM "saved_searches" s WHERE s."id" = ${id}::uuid AND ${inWorkspace('s', workspaceId)}`);
  return row ?? null;
}

/** Locks the caller's saved search of that id for the transaction and reads it, or 404 (another workspace's too). */
async function lockSearch(tx: PrismaClient, workspaceId: string, id: string): Promise<SavedSearchView> {
  const locked = await tx.$queryRaw<{ id: string }[]>(sql`
    SELECT s."id" FROM "saved_searches" s WHERE s."id" = ${id}::uuid AND ${inWorkspace('s', workspaceId)} FOR NO KEY UPDATE`);
  if (!locked.length) throw notFound('The saved search');
  return (await viewOf(tx, workspaceId, id))!;
}

async function replaceMatches(tx: PrismaClient, id: string, rows: string[]): Promise<void> {
  await tx.$executeRaw(sql`DELETE FROM "saved_search_matches" m WHERE m."savedSearchId" = ${id}::uuid`);
  if (rows.length) {
    await tx.$executeRaw(sql`
      INSERT INTO "saved_search_matches" ("savedSearchId", "rowId") SELECT ${id}::uuid, r FROM unnest(${rows}::text[]) r ON CONFLICT DO NOTHING`);
  }
}

export async function savedSearchDetail(context: Context, id: string): Promise<SavedSearchView> {
  const found = await viewOf(context.prisma, (await workspaceOf(context)).id, id);
  if (!found) throw notFound('The saved search');
  return found;
}

/** A page of the workspace's saved searches, newest first, each with the number of rows it holds. */
export async function savedSearchPage(context: Context, page: PageRequest) {
  const { id } = await workspaceOf(context);
  return findRowsPage<SavedSearchView>(context.pool, {
    select: VIEW_COLUMNS,
    from: sql`FROM "saved_searches" s WHERE ${inWorkspace('s', id)}`,
    order: [{ key: sql`s."createdAt"`, direction: 'DESC' }, { key: sql`s."id"`, direction: 'DESC' }],
    page,
  });
}

export async function savedSearchCreate(context: Context, input: SavedSearchInput): Promise<SavedSearchView> {
  const rows = await baseline(context, input.method, input.path, input.params);
  const workspaceId = (await workspaceOf(context)).id;
  return writeAudited(context, async (tx, audit) => {
    const [{ id }] = await tx.$queryRaw<{ id: string }[]>(sql`
      INSERT INTO "saved_searches" ("id", "workspaceId", "name", "method", "path", "params", "notifyLeft")
      VALUES (gen_random_uuid(), ${workspaceId}::uuid, ${input.name}, ${input.method}, ${input.path}, ${JSON.stringify(input.params)}::jsonb, ${input.notifyLeft ?? false})
      RETURNING "id"`);
    await replaceMatches(tx, id, rows);
    const view = (await viewOf(tx, workspaceId, id))!;
    await audit({ action: 'saved_search.create', entityType: 'saved_search', entityId: id, after: view });
    return view;
  });
}

/** Changes a saved search; new params re-take its baseline (the rows they match now, announced by no event). */
export async function savedSearchUpdate(context: Context, id: string, change: SavedSearchChange): Promise<SavedSearchView> {
  const workspaceId = (await workspaceOf(context)).id;
  const current = await viewOf(context.prisma, workspaceId, id);
  if (!current) throw notFound('The saved search');
  const paramsChange = change.params != null && canonical(change.params) !== canonical(current.params) ? change.params : null;
  const rows = paramsChange ? await baseline(context, current.method, current.path, paramsChange) : null;
  return writeAudited(context, async (tx, audit) => {
    const before = await lockSearch(tx, workspaceId, id);
    const sets: Prisma.Sql[] = [];
    if (change.name != null && change.name !== before.name) sets.push(sql`"name" = ${change.name}`);
    if (change.notifyLeft != null && change.notifyLeft !== before.notifyLeft) sets.push(sql`"notifyLeft" = ${change.notifyLeft}`);
    if (paramsChange) sets.push(sql`"params" = ${JSON.stringify(paramsChange)}::jsonb`);
    if (!sets.length) return before;
    await tx.$executeRaw(sql`UPDATE "saved_searches" s SET ${Prisma.join(sets, ', ')}, "updatedAt" = now() WHERE s."id" = ${id}::uuid AND ${inWorkspace('s', workspaceId)}`);
    if (rows) await replaceMatches(tx, id, rows);
    const after = (await viewOf(tx, workspaceId, id))!;
    await audit({ action: 'saved_search.update', entityType: 'saved_search', entityId: id, before, after });
    return after;
  });
}

export async function savedSearchDelete(context: Context, id: string): Promise<{ id: string; deleted: boolean }> {
  const workspaceId = (await workspaceOf(context)).id;
  return writeAudited(context, async (tx, audit) => {
    const before = await lockSearch(tx, workspaceId, id);
    await tx.$executeRaw(sql`DELETE FROM "saved_searches" s WHERE s."id" = ${id}::uuid AND ${inWorkspace('s', workspaceId)}`);
    await audit({ action: 'saved_search.delete', entityType: 'saved_search', entityId: id, before });
    return { id, deleted: true };
  });
}

// ---------------------------------------------------------------------------------------------------------------
// The consumer's statements, on the dispatch transaction's connection. They read every workspace's searches on
// purpose: a batch of market changes is matched against all of them (src/db/workspace-check.ts).

const EVERY_WORKSPACE = acrossWorkspaces('the saved searches consumer matches market changes against every workspace\'s searches');

type Queryable = Pick<pg.PoolClient, 'query'>;

/** A saved search as its consumer reads it: `params` as jsonb's text, the same for the same params. */
export type StoredSearch = {
  id: string;
  name: string;
  method: string;
  path: string;
  params: string;
  notifyLeft: boolean;
  workspace: { id: string; slug: string; name: string; createdAt: Date };
};

/** Every saved search, with its workspace. */
export async function allSearches(client: Queryable): Promise<StoredSearch[]> {
  const { rows } = await client.query<Omit<StoredSearch, 'workspace'> & { workspaceId: string; slug: string; workspaceName: string; workspaceCreatedAt: Date }>(
    `${EVERY_WORKSPACE} SELECT s."id", s."name", s."method", s."path", s."params"::text AS "params", s."notifyLeft",
            w."id" AS "workspaceId", w."slug", w."name" AS "workspaceName", w."createdAt" AS "workspaceCreatedAt"
     FROM "saved_searches" s JOIN "workspaces" w ON w."id" = s."workspaceId"`,
  );
  return rows.map(({ workspaceId, slug, workspaceName, workspaceCreatedAt, ...search }) => ({
    ...search,
    workspace: { id: workspaceId, slug, name: workspaceName, createdAt: workspaceCreatedAt },
  }));
}

/**
 * What the saved searches are now, in a few bytes: their number and the sum of their "updatedAt", which a creation, a
 * change (it sets "updatedAt" to its time) and a deletion all move; the consumer reads them all again only then.
 */
export async function searchesVersion(client: Queryable): Promise<string> {
  const { rows } = await client.query<{ version: string }>(
    `${EVERY_WORKSPACE} SELECT count(*) || ':' || coalesce(sum(extract(epoch FROM s."updatedAt")), 0) AS "version" FROM "saved_searches" s`,
  );
  return rows[0].version;
}

/** A saved search and one of its rows (as the list shows it). */
export type SearchRow = { searchId: string; rowId: string };

/** The rows among `rowIds` (as the lists show them) that each search holds now, by search (migration 0034's index). */
export async function heldRows(client: Queryable, rowIds: string[]): Promise<Map<string, Set<string>>> {
  const held = new Map<string, Set<string>>();
  if (!rowIds.length) return held;
  const { rows } = await client.query<SearchRow>(
    `SELECT m."savedSearchId" AS "searchId", m."rowId" FROM "saved_search_matches" m WHERE m."rowId" = ANY($1::text[])`,
    [rowIds],
  );
  for (const { searchId, rowId } of rows) {
    const set = held.get(searchId);
    if (set) set.add(rowId);
    else held.set(searchId, new Set([rowId]));
  }
  return held;
}

/**
 * What the prefilter knows of changed rows (prefilter.ts), by the id the list engine filters on; a row it says nothing
 * of matches nothing: gone, or an ad that is not its duplicate group's lead (the ads lists hold leads only, ads/service/
 * search.ts conditions). Null for a family whose rows the prefilter knows nothing of.
 */
export async function rowFacts(client: Queryable, family: Family, ids: string[]): Promise<Map<string, RowFacts> | null> {
  if (family === 'meta-ads') {
    const { rows } = await client.query<AdProfile>(
      `SELECT a."id", a."status"::text AS "status", a."mediaType"::text AS "mediaType", a."advertiserId",
              tsvector_to_array(a."searchText") AS "copy", tsvector_to_array(v."searchName") AS "brand",
              a."targetedCountries", a."mainCountry", a."landingPageDomain", a."reach"::float8 AS "reach",
              a."reachDelta1d"::float8 AS "reachDelta1d", a."reachDelta7d"::float8 AS "reachDelta7d", a."reachDelta30d"::float8 AS "reachDelta30d"
       FROM "ads" a LEFT JOIN "advertisers" v ON v."id" = a."advertiserId" WHERE a."id" = ANY($1::text[]) AND a."isGroupLead"`,
      [ids],
    );
    return new Map(rows.map((row) => [row.id, adFacts(row)]));
  }
  if (family === 'advertisers') {
    const { rows } = await client.query<{ id: string; brand: string[] | null }>(
      `SELECT v."id", tsvector_to_array(v."searchName") AS "brand" FROM "advertisers" v WHERE v."id" = ANY($1::text[])`,
      [ids],
    );
    return new Map(rows.map((row) => [row.id, { keys: new Set((row.brand ?? []).map((lexeme) => `b:${lexeme}`)), numbers: {} }]));
  }
  return null;
}

/**
 * The lexemes of each text search's tsquery (the lists' own, shared/list.ts tsQuery), and whether a document needs
 * one of them to match (false when the query matches a document without any: `-word` alone).
 */
export async function queryLexemes(client: Queryable, searches: TextSearch[]): Promise<{ lexemes: string[]; needsOne: boolean }[]> {
  const out: { lexemes: string[]; needsOne: boolean }[] = [];
  // In statements of 500 queries: a query's terms are parameters, and a statement takes at most 65,535 of them.
  for (let start = 0; start < searches.length; start += 500) {
    const part = searches.slice(start, start + 500);
    const values = Prisma.join(part.map((search, i) => sql`(${i}::int, (${tsQuery(search)})::text, NOT (''::tsvector @@ ${tsQuery(search)}))`));
    const statement = sql`SELECT v.i, v.q, v.needs FROM (VALUES ${values}) AS v(i, q, needs) ORDER BY v.i`;
    const { rows } = await client.query<{ q: string; needs: boolean }>(statement.text, statement.values);
    out.push(...rows.map((row) => ({ lexemes: lexemesOf(row.q), needsOne: row.needs })));
  }
  return out;
}

/**
 * Locks these searches until the dispatch transaction ends (a change or a delete waits for it, and it for them) and
 * answers the params each has now: a search changed or deleted since it was evaluated is left alone (a change took
 * its new baseline).
 */
export async function lockedParams(client: Queryable, ids: string[]): Promise<Map<string, string>> {
  if (!ids.length) return new Map();
  const { rows } = await client.query<{ id: string; params: string }>(
    `${EVERY_WORKSPACE} SELECT s."id", s."params"::text AS "params" FROM "saved_searches" s WHERE s."id" = ANY($1::uuid[]) ORDER BY s."id" FOR SHARE`,
    [ids],
  );
  return new Map(rows.map((row) => [row.id, row.params]));
}

/** Rows that entered (`entered`) or left (`left`) searches, and their events, in the caller's transaction. */
export async function applyMatches(client: pg.PoolClient, change: { entered: SearchRow[]; left: SearchRow[]; events: NewEvent[] }): Promise<void> {
  const { entered, left, events } = change;
  if (entered.length) {
    await client.query(
      `INSERT INTO "saved_search_matches" ("savedSearchId", "rowId") SELECT * FROM unnest($1::uuid[], $2::text[]) ON CONFLICT DO NOTHING`,
      [entered.map((p) => p.searchId), entered.map((p) => p.rowId)],
    );
  }
  if (left.length) {
    await client.query(
      `DELETE FROM "saved_search_matches" m USING unnest($1::uuid[], $2::text[]) AS p(s, r) WHERE m."savedSearchId" = p.s AND m."rowId" = p.r`,
      [left.map((p) => p.searchId), left.map((p) => p.rowId)],
    );
  }
  await recordEvents(client, 'events', events);
}

// What the dispatcher's consumer (src/events/saved-searches.ts) runs: the market lists and the prefilter.
export { listArguments, listName, ListRunFailed, marketLists, runList, runPrincipal, type Family, type MarketList, type RunServices } from '../shared/market-lists.js';
export { candidatesOf, isTextRequirement, keyIndex, requirementsOf, type Requirement, type Requirements } from './service/prefilter.js';
