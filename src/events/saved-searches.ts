import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash } from 'node:crypto';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import type { EventRow, NewEvent } from '../data/events.js';
import { OMITTED } from '../db/client.js';
import { prismaStatementName } from '../db/statements.js';
import { Prisma, PrismaClient } from '../generated/prisma/client.js';
import { MemoryRateLimitStore, RateLimiter } from '../metering/rate-limit.js';
import {
  allSearches, applyMatches, candidatesOf, heldRows, isTextRequirement, keyIndex, listArguments, listName, ListRunFailed, lockedParams, marketLists,
  queryLexemes, requirementsOf, rowFacts, runList, runPrincipal, searchesVersion, type Family, type MarketList, type Requirement, type Requirements,
  type RunServices, type SearchRow, type StoredSearch,
} from '../schema/saved-searches/service.js';
import { refuseWorkspaceTables } from '../schema/shared/workspace.js';
import type { EventConsumer } from './dispatch.js';

// The saved searches' consumer: in the dispatch transaction, the rows each batch of events changed are run through
// the saved searches of their lists, restricted to those rows (src/schema/shared/list.ts, withRowRestriction), so a
// search costs what its matches among a batch's rows cost, not a run over the whole market. Identical searches (the
// same route and params) are run once for all the workspaces that saved them, and a search runs only on the changed
// rows that meet what its arguments require (src/schema/saved-searches/service/prefilter.ts). A row that newly matches a
// search enters it (saved_search_matches) with a `search.matched` event of the search's workspace; one that no longer
// matches leaves it, with a `search.left` event when the search asks for it. Those events are dispatched in a later
// batch like any other (they change no market row, so they wake no search).
// Everything runs on the dispatch transaction's connection, one statement at a time: the searches (read again only
// when they changed), what the changed rows are, which searches hold them, the runs, the writes.

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

/**
 * Runs `query` on the dispatch transaction's connection once the statements sent before it are answered: a connection
 * takes one statement at a time, and the runs in flight (and Prisma's statements within one) send theirs at once.
 */
function onDispatch<T>(query: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const current = connection.getStore();
  if (!current) return Promise.reject(new Error('saved searches: a list ran outside the dispatch transaction'));
  const turn = (queues.get(current) ?? Promise.resolve()).then(() => query(current.client));
  queues.set(current, turn.catch(() => undefined));
  return turn;
}

// The lists run on the dispatch transaction's own connection: its snapshot, and no second connection (the embedded
// database serves one transaction at a time, so a second connection would wait for this one forever). A pool whose
// every statement goes to the connection of the batch being consumed, with a Prisma client over it, made once.
const connection = new AsyncLocalStorage<{ client: pg.PoolClient }>();
const queues = new WeakMap<{ client: pg.PoolClient }, Promise<unknown>>();

function onDispatchConnection(): RunServices {
  const pool = new pg.Pool({ max: 1 });
  pool.query = ((...args: Parameters<pg.PoolClient['query']>) => onDispatch((client) => client.query(...args) as unknown as Promise<unknown>)) as typeof pool.query;
  pool.connect = (async () => {
    throw new Error('saved searches: a list run takes no connection of its own (it runs in the dispatch transaction)');
  }) as typeof pool.connect;
  return {
    prisma: refuseWorkspaceTables(new PrismaClient({ adapter: new PrismaPg(pool, { statementNameGenerator: (query) => prismaStatementName(query.sql) }), omit: OMITTED })),
    pool,
    ledger: pool,
    // A run is given its principal, is never rate-limited and shows no row (so makes no media URL): these are not used.
    authenticate: () => Promise.reject(new Error('saved searches: a list run is given its principal')),
    rateLimiter: new RateLimiter(new MemoryRateLimitStore(), { read: { capacity: 1, perSecond: 1 }, write: { capacity: 1, perSecond: 1 } }),
    publicBaseUrl: 'http://localhost',
    startedAt: new Date(),
  };
}

let services: RunServices | undefined;

/**
 * A restricted list's statement, on the dispatch connection, as plain SQL (Prisma's raw queries cost a third of a run)
 * and prepared: its conditions differ from one search to another but its shape seldom does, and planning it (the ads
 * table's many indexes) cost four times running it. Its generic plan reads the restriction's few rows by their key,
 * whatever the values. At most MAX_SHAPES texts are prepared (a connection keeps what it prepared, with its plan, for
 * as long as it lives: a bound on the database's memory); others run unnamed.
 */
const MAX_SHAPES = 100;
const shapes = new Map<string, string>();

function shapeName(text: string): string | undefined {
  let name = shapes.get(text);
  if (name === undefined && shapes.size < MAX_SHAPES) shapes.set(text, (name = `ss_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`));
  return name;
}

const onConnection = async (_db: unknown, statement: Prisma.Sql) =>
  (await onDispatch((client) => client.query<{ id: string }>({ name: shapeName(statement.text), text: statement.text, values: statement.values }))).rows;

/** What a distinct saved search is, read once per list and params (the same text always reads the same). */
type Prepared = {
  /** The route's arguments; null when this version of the route refuses them (the search waits for a change). */
  values: Record<string, unknown> | null;
  /** The prefilter's requirements, once its text queries are read (requirementsOf, queryLexemes). */
  requirements: Requirement[] | null;
  pending: Requirements;
};

function prepare(list: MarketList, params: string): Prepared {
  let values: Record<string, unknown> | null = null;
  try {
    values = listArguments(list, JSON.parse(params) as Record<string, unknown>, 'a saved search');
  } catch {
    // accepted when saved, refused by this version of the route
  }
  return { values, requirements: null, pending: values ? requirementsOf(list, values) : [] };
}

/** Searches run as one: the same list and params (and, where the list reads the caller, the same workspace). */
type Group = { list: MarketList; prepared: Prepared & { values: Record<string, unknown> }; searches: StoredSearch[] };

/** Arguments whose answer depends on who asks: a search using them is run for its own workspace. */
const CALLER_ARGUMENTS = ['hideSavedAds'];

/** The saved searches of a database as groups by family, and the version of the searches they were made from. */
type Catalogue = { version: string; groups: Map<Family, Group[]> };

function catalogueOf(version: string, lists: Map<string, MarketList>, searches: StoredSearch[], before?: Catalogue): Catalogue {
  // What was read of a distinct search before (its arguments, its requirements) is kept.
  const known = new Map<string, Prepared>();
  for (const groups of before?.groups.values() ?? []) for (const group of groups) known.set(`${group.list.name} ${group.searches[0].params}`, group.prepared);
  const groups = new Map<string, Group>();
  for (const search of searches) {
    const list = lists.get(listName(search.method, search.path));
    if (!list) continue;
    const text = `${list.name} ${search.params}`;
    let found = known.get(text);
    if (!found) known.set(text, (found = prepare(list, search.params)));
    const values = found.values;
    if (!values) continue;
    const own = CALLER_ARGUMENTS.some((name) => values[name] != null && values[name] !== false);
    const key = own ? `${text} ${search.workspace.id}` : text;
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { list, prepared: found as Group['prepared'], searches: [] }));
    group.searches.push(search);
  }
  const byFamily = new Map<Family, Group[]>();
  for (const group of groups.values()) byFamily.set(group.list.family, [...(byFamily.get(group.list.family) ?? []), group]);
  return { version, groups: byFamily };
}

// The catalogue of each database this process dispatches for, read again only when its searches changed.
const catalogues = new Map<string, Catalogue>();

async function catalogue(client: pg.PoolClient, lists: Map<string, MarketList>): Promise<Catalogue> {
  const where = `${client.host}:${client.port}/${client.database}`;
  const version = await searchesVersion(client);
  const before = catalogues.get(where);
  if (before?.version === version) return before;
  const made = catalogueOf(version, lists, await allSearches(client), before);
  catalogues.set(where, made);
  return made;
}

/** Reads the text queries of the groups' requirements not read yet, all in a few statements. */
async function readRequirements(client: pg.PoolClient, groups: Group[]): Promise<void> {
  const waiting = [...new Set(groups.map((group) => group.prepared).filter((p) => p.requirements === null))];
  const texts = waiting.flatMap((p) => p.pending.filter(isTextRequirement));
  const read = await queryLexemes(client, texts.map((r) => r.text));
  const byText = new Map(texts.map((r, i) => [r, read[i]]));
  for (const p of waiting) {
    p.requirements = p.pending.flatMap((r): Requirement[] => {
      if (!isTextRequirement(r)) return [r];
      const { lexemes, needsOne } = byText.get(r)!;
      return needsOne ? [lexemes.map((lexeme) => `${r.prefix}${lexeme}`)] : [];
    });
  }
}

/**
 * The rows of `among` the group's list holds, as each workspace of the group sees them: run once as the first
 * workspace; when the route refuses that workspace (its plan, say), each workspace alone. A search its route refuses
 * is left as it is (null) until a change makes it run again.
 */
async function evaluate(group: Group, among: string[]): Promise<Map<StoredSearch, Set<string> | null>> {
  const run = (search: StoredSearch) => runList(group.list, group.prepared.values, services!, runPrincipal(search.workspace), { among, statement: onConnection });
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

type Move = SearchRow & { search: StoredSearch; eventId: string };

/** The rows of one family's changes that entered or left its searches. */
async function movesOf(client: pg.PoolClient, family: Family, changed: Map<string, string>, groups: Group[], moves: { entered: Move[]; left: Move[] }): Promise<void> {
  const { publicId } = groups[0].list;
  const ids = [...changed.keys()];
  const rowIdOf = new Map(ids.map((id) => [publicId(id), id]));
  const held = await heldRows(client, [...rowIdOf.keys()]);
  const facts = await rowFacts(client, family, ids);
  // Rows the prefilter knows nothing of match nothing (gone, or ads that are not their group's lead): only their leaving
  // is looked at.
  const known = facts ? ids.filter((id) => facts.has(id)) : ids;
  const rows = facts ? known.map((id) => facts.get(id)!) : [];
  const byKey = keyIndex(rows);
  if (facts) await readRequirements(client, groups);
  // Every group at once: while one run's statement is on the connection, the others get theirs ready. Each settles
  // before the batch goes on.
  const settled = await Promise.allSettled(groups.map(async (group) => {
    const among = facts ? candidatesOf(group.prepared.requirements!, rows, byKey).map((i) => known[i]) : ids;
    if (!among.length && !group.searches.some((search) => held.has(search.id))) return null;
    return among.length ? await evaluate(group, among) : new Map(group.searches.map((search) => [search, new Set<string>()]));
  }));
  const failed = settled.find((outcome) => outcome.status === 'rejected');
  if (failed) throw failed.reason;
  const eventOf = (rowId: string) => changed.get(rowIdOf.get(rowId)!)!;
  groups.forEach((group, i) => {
    const results = (settled[i] as PromiseFulfilledResult<Map<StoredSearch, Set<string> | null> | null>).value;
    for (const search of results ? group.searches : []) {
      const matched = results!.get(search);
      if (!matched) continue;
      const had = held.get(search.id) ?? new Set<string>();
      for (const rowId of matched) if (!had.has(rowId)) moves.entered.push({ searchId: search.id, rowId, search, eventId: eventOf(rowId) });
      for (const rowId of had) if (!matched.has(rowId)) moves.left.push({ searchId: search.id, rowId, search, eventId: eventOf(rowId) });
    }
  });
}

async function consume(client: pg.PoolClient, events: EventRow[]): Promise<void> {
  const changes = changesOf(events);
  if (!changes.size) return;
  const lists = await marketLists();
  const { groups } = await catalogue(client, lists);
  const families = [...changes.keys()].filter((family) => groups.has(family));
  if (!families.length) return;
  services ??= onDispatchConnection();
  const moves = { entered: [] as Move[], left: [] as Move[] };
  // The restricted statements (onConnection) on their generic plans from their first run: a restriction to a few
  // keys makes the key's index the plan whatever the other values, and planning cost more than running.
  await client.query(`SET LOCAL plan_cache_mode = force_generic_plan`);
  await connection.run({ client }, async () => {
    for (const family of families) await movesOf(client, family, changes.get(family)!, groups.get(family)!, moves);
  });
  await client.query(`SET LOCAL plan_cache_mode = DEFAULT`);
  const { entered, left } = moves;
  if (!entered.length && !left.length) return;
  // A search changed or deleted since it was read keeps what its change made of it.
  const current = await lockedParams(client, [...new Set([...entered, ...left].map((move) => move.searchId))]);
  const unchanged = (move: Move) => current.get(move.searchId) === move.search.params;
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
