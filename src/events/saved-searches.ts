import { AsyncLocalStorage } from 'node:async_hooks';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import type { EventRow, NewEvent } from '../data/events.js';
import { OMITTED } from '../db/client.js';
import { prismaStatementName } from '../db/statements.js';
import { PrismaClient } from '../generated/prisma/client.js';
import { MemoryRateLimitStore, RateLimiter } from '../metering/rate-limit.js';
import { listArguments, listName, ListRunFailed, marketLists, runList, runPrincipal, type Family, type MarketList, type RunServices } from '../schema/saved-searches/lists.js';
import { applyMatches, heldRows, lockedParams, pairKey, searchesOf, type SearchRow, type StoredSearch } from '../schema/saved-searches/service.js';
import { refuseWorkspaceTables } from '../schema/shared/workspace.js';
import type { EventConsumer } from './dispatch.js';

// The saved searches' consumer: in the dispatch transaction, the rows each batch of events changed are run through
// the saved searches of their lists, restricted to those rows (src/schema/shared/list.ts, withRowRestriction), so a
// search costs what its matches among a batch's rows cost, not a run over the whole market. Identical searches (the
// same route and params) are run once for all the workspaces that saved them. A row that newly matches a search
// enters it (saved_search_matches) with a `search.matched` event of the search's workspace; one that no longer
// matches leaves it, with a `search.left` event when the search asks for it. Those events are dispatched in a later
// batch like any other (they change no market row, so they wake no search).

/** The rows a batch changed, by family, each with the first event of the batch that changed it. */
type Changes = Map<Family, Map<string, string>>;

const AD_FAMILY_OF_PLATFORM: Record<string, Family> = { facebook: 'meta-ads', instagram: 'meta-ads', tiktok: 'tiktok', google: 'google-ads' };
const AD_FAMILY_OF_SOURCE: Record<string, Family> = { 'meta-ads': 'meta-ads', 'tiktok-ads': 'tiktok', 'google-ads': 'google-ads' };

/** An ad event's family: its platform (ad.created says it), else its source; else any ad family might hold it. */
function adFamilies(event: EventRow): Family[] {
  const after = event.data.after as { platform?: unknown } | null | undefined;
  const family = (typeof after?.platform === 'string' && AD_FAMILY_OF_PLATFORM[after.platform]) || AD_FAMILY_OF_SOURCE[event.source];
  return family ? [family] : ['meta-ads', 'tiktok', 'google-ads'];
}

export function changesOf(events: EventRow[]): Changes {
  const changes: Changes = new Map();
  const add = (family: Family, id: string | null, event: EventRow) => {
    if (!id) return;
    let rows = changes.get(family);
    if (!rows) changes.set(family, (rows = new Map()));
    if (!rows.has(id)) rows.set(id, event.id);
  };
  for (const event of events) {
    if (event.type.startsWith('ad.')) for (const family of adFamilies(event)) add(family, event.adId, event);
    add('advertisers', event.advertiserId, event);
    if (event.type.startsWith('shop.') || event.type.startsWith('product.')) add('shops', event.shopId, event);
    add('products', event.productId, event);
  }
  return changes;
}

// The lists run on the dispatch transaction's own connection: its snapshot, and no second connection (the embedded
// database serves one transaction at a time, so a second connection would wait for this one forever). A pool whose
// every statement goes to the connection of the batch being consumed, with a Prisma client over it, made once.
const connection = new AsyncLocalStorage<pg.PoolClient>();

function onDispatchConnection(): RunServices {
  const pool = new pg.Pool({ max: 1 });
  const client = () => {
    const current = connection.getStore();
    if (!current) throw new Error('saved searches: a list ran outside the dispatch transaction');
    return current;
  };
  pool.query = ((...args: Parameters<pg.PoolClient['query']>) => client().query(...args)) as typeof pool.query;
  pool.connect = (async () => {
    throw new Error('saved searches: a list run takes no connection of its own (it runs in the dispatch transaction)');
  }) as typeof pool.connect;
  return {
    prisma: refuseWorkspaceTables(new PrismaClient({ adapter: new PrismaPg(pool, { statementNameGenerator: (query) => prismaStatementName(query.sql) }), omit: OMITTED })),
    pool,
    ledger: pool,
    authenticate: () => Promise.reject(new Error('saved searches: a list run is given its principal')),
    rateLimiter: new RateLimiter(new MemoryRateLimitStore(), { read: { capacity: 1, perSecond: 1 }, write: { capacity: 1, perSecond: 1 } }),
    publicBaseUrl: process.env.PUBLIC_BASE_URL ?? 'http://localhost',
    startedAt: new Date(),
  };
}

let services: RunServices | undefined;

/** A saved search's arguments read once per distinct params (they never change for a given text); null: refused now. */
const argumentsCache = new Map<string, Record<string, unknown> | null>();

function argumentsOf(list: MarketList, params: string): Record<string, unknown> | null {
  const key = `${list.name} ${params}`;
  if (argumentsCache.has(key)) return argumentsCache.get(key)!;
  let values: Record<string, unknown> | null;
  try {
    values = listArguments(list, JSON.parse(params) as Record<string, unknown>);
  } catch {
    values = null; // accepted when saved, refused by this version of the route: the search waits for a change
  }
  if (argumentsCache.size >= 50_000) argumentsCache.clear();
  argumentsCache.set(key, values);
  return values;
}

/** Searches run as one: the same list and params (and, where the list reads the caller, the same workspace). */
type Group = { list: MarketList; values: Record<string, unknown>; params: string; searches: StoredSearch[] };

/** Arguments whose answer depends on who asks: a search using them is run for its own workspace. */
const CALLER_ARGUMENTS = ['hideSavedAds'];

function groupsOf(lists: Map<string, MarketList>, searches: StoredSearch[]): Group[] {
  const groups = new Map<string, Group>();
  for (const search of searches) {
    const list = lists.get(listName(search.method, search.path));
    if (!list) continue;
    const values = argumentsOf(list, search.params);
    if (!values) continue;
    const own = CALLER_ARGUMENTS.some((name) => values[name] != null && values[name] !== false);
    const key = `${list.name} ${search.params}${own ? ` ${search.workspace.id}` : ''}`;
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { list, values, params: search.params, searches: [] }));
    group.searches.push(search);
  }
  return [...groups.values()];
}

/**
 * The rows of `among` the group's list holds, as each workspace of the group sees them: run once as the first
 * workspace; when the route refuses that workspace (its plan, say), each workspace alone. A search its route refuses
 * is left as it is (null) until a change makes it run again.
 */
async function evaluate(group: Group, among: string[]): Promise<Map<StoredSearch, Set<string> | null>> {
  const run = (search: StoredSearch) => runList(group.list, group.values, services!, runPrincipal(search.workspace), { among });
  const out = new Map<StoredSearch, Set<string> | null>();
  try {
    const rows = new Set(await run(group.searches[0]));
    for (const search of group.searches) out.set(search, rows);
    return out;
  } catch (error) {
    if (!(error instanceof ListRunFailed)) throw error;
  }
  for (const search of group.searches) {
    try {
      out.set(search, new Set(await run(search)));
    } catch (error) {
      if (!(error instanceof ListRunFailed)) throw error;
      out.set(search, null);
    }
  }
  return out;
}

async function consume(client: pg.PoolClient, events: EventRow[]): Promise<void> {
  const changes = changesOf(events);
  if (!changes.size) return;
  const lists = await marketLists();
  const names = [...lists.values()].filter((list) => changes.has(list.family)).map((list) => list.name);
  const searches = await searchesOf(client, names);
  if (!searches.length) return;
  services ??= onDispatchConnection();
  const entered: (SearchRow & { search: StoredSearch; eventId: string })[] = [];
  const left: (SearchRow & { search: StoredSearch; eventId: string })[] = [];
  await connection.run(client, async () => {
    for (const group of groupsOf(lists, searches)) {
      const changed = changes.get(group.list.family)!;
      const among = [...changed.keys()];
      const results = await evaluate(group, among);
      const candidates = among.map((id) => ({ id, rowId: group.list.publicId(id), eventId: changed.get(id)! }));
      const pairs = group.searches.flatMap((search) => (results.get(search) ? candidates.map((c) => ({ searchId: search.id, rowId: c.rowId })) : []));
      const held = await heldRows(client, pairs);
      for (const search of group.searches) {
        const matched = results.get(search);
        if (!matched) continue;
        for (const candidate of candidates) {
          const pair = { searchId: search.id, rowId: candidate.rowId };
          const isHeld = held.has(pairKey(pair));
          if (matched.has(candidate.rowId) && !isHeld) entered.push({ ...pair, search, eventId: candidate.eventId });
          else if (!matched.has(candidate.rowId) && isHeld) left.push({ ...pair, search, eventId: candidate.eventId });
        }
      }
    }
  });
  if (!entered.length && !left.length) return;
  // A search changed or deleted since it was read keeps what its change made of it.
  const evaluated = new Map(searches.map((search) => [search.id, search.params]));
  const current = await lockedParams(client, [...new Set([...entered, ...left].map((pair) => pair.searchId))]);
  const unchanged = (pair: SearchRow) => current.get(pair.searchId) === evaluated.get(pair.searchId);
  const keptEntered = entered.filter(unchanged);
  const keptLeft = left.filter(unchanged);
  const about = (search: StoredSearch, rowId: string) => ({ rowId, method: search.method, path: search.path, name: search.name });
  const newEvents: NewEvent[] = [
    ...keptEntered.map(({ search, rowId, eventId }): NewEvent => ({
      type: 'search.matched',
      dedupeKey: `search.matched:${search.id}:${rowId}:${eventId}`,
      workspaceId: search.workspace.id,
      savedSearchId: search.id,
      data: { before: null, after: about(search, rowId) },
    })),
    ...keptLeft.filter(({ search }) => search.notifyLeft).map(({ search, rowId, eventId }): NewEvent => ({
      type: 'search.left',
      dedupeKey: `search.left:${search.id}:${rowId}:${eventId}`,
      workspaceId: search.workspace.id,
      savedSearchId: search.id,
      data: { before: about(search, rowId), after: null },
    })),
  ];
  await applyMatches(client, { entered: keptEntered, left: keptLeft, events: newEvents });
}

export function savedSearchesConsumer(): EventConsumer {
  return { name: 'saved-searches', consume: (client, events) => consume(client, events) };
}
