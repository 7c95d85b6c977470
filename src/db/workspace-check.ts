import pg from 'pg';

// The workspace filter, checked on every statement the project's pools send (src/schema/shared/workspace.ts says
// what the filter is). A statement that names a workspace table must state, for each mention, the filter that
// inWorkspace() renders on that mention's alias: `FROM "boards" b … WHERE b."workspaceId" = $1::uuid`. One that
// does not is refused before it reaches the database, so a statement that forgets the filter fails, never leaks.
// Prisma's own statements (it writes every table with its schema, `"public"."<table>"`) are left to the client
// guards of workspace.ts; the project's SQL never writes a workspace table that way (test/workspace/filter.test.ts).
// The verdict is kept per text: texts repeat, so a statement costs one Map lookup after its first run.

/** The tables of workspace data (Prisma's WORKSPACE_MODELS): every statement on them states the workspace filter. */
export const WORKSPACE_TABLES: ReadonlySet<string> = new Set([
  'ad_shares', 'brandtracker_folders', 'brandtracker_links', 'boards', 'board_items', 'board_shares', 'audit_events', 'image_searches',
  'brandtracker_quotas', 'brandtracker_quota_operations', 'webhooks', 'saved_searches', 'exports',
]);

const MARKER = /^\s*\/\* across workspaces: [^*]+ \*\//;

/**
 * The one way past the check: a comment that starts a statement which spans workspaces on purpose (migrations), with
 * its reason. Visible where the statement is written, and nowhere else.
 */
export function acrossWorkspaces(reason: string): string {
  if (!/^[\w ,.;:'()-]+$/.test(reason)) throw new Error(`acrossWorkspaces: a plain reason, not ${JSON.stringify(reason)}`);
  return `/* across workspaces: ${reason} */`;
}

const NAMES = [...WORKSPACE_TABLES].join('|');
const MENTION = new RegExp(`\\b(?:${NAMES})\\b`, 'i');
/** A table in a FROM list, a join, an UPDATE, DELETE … USING, an INSERT or a TRUNCATE: `"boards" b`, `boards AS b`, `, "boards"`. */
const REFERENCE = new RegExp(
  `(?:\\b(INSERT\\s+INTO|FROM|JOIN|UPDATE|INTO|USING|TRUNCATE(?:\\s+TABLE)?)\\s+(?:ONLY\\s+)?|(,)\\s*)((?:"public"|public)\\.)?("?)(${NAMES})\\4(?![\\w"$.])`,
  'gi',
);
const ALIAS = /\s*(?:AS\s+)?("[^"]+"|[A-Za-z_][\w$]*)/iy;
const COLUMNS = /\s*\(([^)]*)\)/y;
const NOT_ALIASES = new Set([
  'where', 'on', 'using', 'join', 'inner', 'left', 'right', 'full', 'cross', 'natural', 'set', 'group', 'order', 'limit',
  'offset', 'for', 'returning', 'union', 'except', 'intersect', 'window', 'having', 'tablesample', 'fetch', 'values',
  'select', 'default', 'overriding', 'lateral', 'with', 'and', 'or', 'then', 'when', 'do', 'as',
]);
/** inWorkspace()'s condition: `b."workspaceId" = $1::uuid` (the cast may be left out); bare for an unaliased table. */
const CONDITION = /(?<![\w".$])("[^"]+"|[A-Za-z_][\w$]*)\."workspaceId"\s*=\s*\$\d+(?:::uuid)?(?![\w$])/g;
const BARE_CONDITION = /(?<![\w".$])"workspaceId"\s*=\s*\$\d+(?:::uuid)?(?![\w$])/g;
const UPSERT = /\bON\s+CONFLICT\b[\s\S]*?\bDO\s+UPDATE\b/i;

const nameOf = (identifier: string) => (identifier.startsWith('"') ? identifier.slice(1, -1) : identifier.toLowerCase());

/** Why `text` is refused by the workspace filter, or null when it may run. */
export function workspaceFilterRefusal(text: string): string | null {
  if (!MENTION.test(text) || MARKER.test(text)) return null;
  const needed: { table: string; qualifier: string; aliased: boolean }[] = [];
  for (const match of text.matchAll(REFERENCE)) {
    const [whole, keyword, comma, schema, quote, table] = match;
    if (comma && !quote) continue; // an unquoted name after a comma is a column or an alias
    if (schema === '"public".' && quote) continue; // Prisma's own statement: the client guards see to it
    let qualifier = nameOf(`${quote}${table}${quote}`);
    let aliased = false;
    let at = match.index + whole.length;
    ALIAS.lastIndex = at;
    const alias = ALIAS.exec(text);
    if (alias && !NOT_ALIASES.has(alias[1].toLowerCase())) {
      qualifier = nameOf(alias[1]);
      aliased = true;
      at = ALIAS.lastIndex;
    }
    if (keyword && /^INSERT/i.test(keyword)) {
      // A new row states its workspace; only an upsert's update reaches an existing row, and filters it like a read.
      COLUMNS.lastIndex = at;
      const columns = COLUMNS.exec(text);
      if (!columns || !columns[1].includes('"workspaceId"')) return `INSERT INTO "${table}" without its "workspaceId" column`;
      if (!UPSERT.test(text)) continue;
    }
    needed.push({ table, qualifier, aliased });
  }
  if (!needed.length) return null;
  const stated = new Map<string, number>();
  for (const [, qualifier] of text.matchAll(CONDITION)) stated.set(nameOf(qualifier), (stated.get(nameOf(qualifier)) ?? 0) + 1);
  let bare = text.match(BARE_CONDITION)?.length ?? 0;
  // Each mention takes one condition of its own alias: an alias filtered once does not cover a second mention.
  for (const { table, qualifier, aliased } of needed) {
    const left = stated.get(qualifier) ?? 0;
    if (left > 0) stated.set(qualifier, left - 1);
    else if (!aliased && bare > 0) bare -= 1;
    else return `"${table}"${aliased ? ` ${qualifier}` : ''} without ${aliased ? qualifier : `"${table}"`}."workspaceId" = $n::uuid (inWorkspace)`;
  }
  return null;
}

const MAX_VERDICTS = 10_000;
const verdicts = new Map<string, string | null>();

function verdictOf(text: string): string | null {
  let verdict = verdicts.get(text);
  if (verdict === undefined) {
    verdict = workspaceFilterRefusal(text);
    if (verdicts.size < MAX_VERDICTS) verdicts.set(text, verdict);
  }
  return verdict;
}

/** The error of a refused statement: a bug in the statement, masked as internal_error by the surfaces. */
export class WorkspaceFilterError extends Error {
  override name = 'WorkspaceFilterError';
}

type Callback = (error: Error) => void;
type Submittable = { submit: unknown; handleError(error: Error, connection: unknown): void; callback?: Callback };

/**
 * pg's client, checking each statement first (the pools of src/db/client.ts make their connections with it). A
 * refused statement fails as pg fails one: through its callback or its promise; it is never sent.
 */
export class WorkspaceCheckedClient extends pg.Client {}

function checkedQuery(this: pg.Client, ...args: unknown[]): unknown {
  const [config] = args;
  const text = typeof config === 'string' ? config : (config as { text?: unknown } | null)?.text;
  const refusal = typeof text === 'string' ? verdictOf(text) : null;
  // Looked up on every call (a test's spy on pg.Client.prototype.query sees each statement that is sent).
  if (refusal === null) return (pg.Client.prototype.query as (...args: unknown[]) => unknown).apply(this, args);
  const error = new WorkspaceFilterError(`Refused by the workspace filter: ${refusal}`);
  if (typeof (config as Submittable).submit === 'function') {
    const query = config as Submittable;
    process.nextTick(() => query.handleError(error, undefined));
    return query;
  }
  const callback = [args[1], args[2], (config as { callback?: unknown }).callback].find((arg) => typeof arg === 'function') as Callback | undefined;
  if (callback) {
    process.nextTick(() => callback(error));
    return undefined;
  }
  return Promise.reject(error);
}

Object.defineProperty(WorkspaceCheckedClient.prototype, 'query', { value: checkedQuery, writable: true, configurable: true });
