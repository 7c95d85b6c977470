import { getNamedType, getNullableType, GraphQLError, isObjectType, Kind, parse, type DocumentNode, type ExecutionResult, type OperationDefinitionNode, type GraphQLField, type GraphQLSchema } from 'graphql';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import { envelope } from '../../../rest/envelope.js';
import { matchRoute } from '../../../rest/match.js';
import { routeOperations, type RouteOperation } from '../../../rest/operation.js';
import { argumentsFromHttp } from '../../../rest/arguments.js';
import { routes, type RestRoute } from '../../../rest/routes.js';
import type { Principal } from '../../auth/principal.js';
import { createContext, type AppServices, type Context } from '../../context.js';
import { isErrorCode, validationError, type ArgumentViolation } from '../../errors.js';
import { compositeId } from '../tiktok/types.js';
import { TooManyRows, withRowRestriction, type RowRestriction } from './list.js';

// The market lists, "a list route as an integrator calls it" (`{ method, path, params }`), and how one is run: through
// the route's own GraphQL field and resolver, as a workspace, uncharged. Two domains run them:
// - saved searches (src/schema/saved-searches/), under a row restriction (src/schema/shared/list.ts) that makes the
//   list answer every match among some rows (the rows a write of market data changed) or every match up to a bound;
// - exports (src/schema/exports/), under the list engine's export mode, which makes each run answer the next chunk of
//   the whole list, its rows shaped by the route's own resolvers with the selection REST gives the route (SOFA's).
// The route's arguments are read from the params exactly as REST reads a request's (rest/plugin.ts), so a bad
// parameter is the route's own validation error, named `params.<name>`.

/** Which rows a list holds: the changes that can make a row enter or leave it come from the events of that family. */
export type Family = 'meta-ads' | 'tiktok' | 'google-ads' | 'advertisers' | 'shops' | 'products' | 'emails';

/**
 * The market lists are the route table's Query routes whose rows are one of these types (saved searches: those without
 * a path parameter).
 * `publicId` turns the id the list engine filters on into the one the route shows (TikTok items are filtered on
 * TikTok's id and shown as `tiktok_<id>`).
 */
const same = (id: string) => id;
const FAMILIES: Record<string, { family: Family; publicId: (id: string) => string }> = {
  PublicAd: { family: 'meta-ads', publicId: same },
  TikTokLibraryItem: { family: 'tiktok', publicId: compositeId },
  GoogleAd: { family: 'google-ads', publicId: same },
  AdvertiserSummary: { family: 'advertisers', publicId: same },
  ShopSummary: { family: 'shops', publicId: same },
  Product: { family: 'products', publicId: same },
  EmailSummary: { family: 'emails', publicId: same },
};

/**
 * Lists that only exports read, by their item type: their own engine, not the list engine (the event feed, GET
 * /v1/events: a cursor list of events in the order they were recorded, read whole by its pages one after another).
 * No saved search names them (their rows are not market rows that a change makes enter or leave).
 */
const FEEDS = new Set(['Event']);

/** Arguments that page a list: a saved search holds a list's filters and sort, never a page of it. */
const PAGING = new Set(['page', 'limit', 'offset', 'cursor']);

/** A list route read whole (a market list, or a feed: FEEDS) with the item selection REST gives it. */
export type ListRoute = {
  /** `list`: the list engine's (findPage, findIds); `feed`: the event feed's own pages (exports read them one by one). */
  engine: 'list' | 'feed';
  /** `GET /v1/ads`: how a saved search names it. */
  name: string;
  method: 'GET' | 'POST';
  /** The public path, `/v1/ads`. */
  path: string;
  route: RestRoute;
  field: GraphQLField<unknown, unknown>;
  /** The route's path parameters (`brandtrackerId`): none for the lists a saved search may name. */
  pathParams: string[];
  /** The list with the item selection REST gives the route, compiled on first use (rowsQuery), and that operation. */
  rows?: CompiledQuery;
  rowsDocument?: DocumentNode;
};

export type MarketList = ListRoute & {
  engine: 'list';
  family: Family;
  publicId: (id: string) => string;
  run: CompiledQuery;
};

const publicPath = (route: RestRoute) => `/v1${route.path}`;
export const listName = (method: string, path: string) => `${method} ${path}`;

let lists: Promise<{ schema: GraphQLSchema; all: Map<string, MarketList>; plain: Map<string, MarketList>; feeds: ListRoute[]; operationOf: (route: RestRoute) => RouteOperation }> | undefined;

function allLists() {
  // The schema imports the domains that use this module: it is read once built, on first use.
  lists ??= import('../index.js').then(({ schema }) => {
    const all = listsOf(schema);
    return { schema, all, plain: new Map([...all].filter(([, list]) => list.pathParams.length === 0)), feeds: feedsOf(schema), operationOf: routeOperations(schema) };
  });
  return lists;
}

/** The market lists a saved search may name (no path parameter), by name (`GET /v1/ads`), read once from the route table and the schema. */
export async function marketLists(): Promise<Map<string, MarketList>> {
  return (await allLists()).plain;
}

/** The route table's Query routes (GET or POST) that answer a page (`data` items and `pagination`), with the items' type name. */
function* pageRoutes(schema: GraphQLSchema): Generator<{ route: RestRoute; method: 'GET' | 'POST'; field: GraphQLField<unknown, unknown>; row: string }> {
  const query = schema.getQueryType()!.getFields();
  for (const route of routes) {
    if (!route.field.startsWith('Query.') || (route.method !== 'GET' && route.method !== 'POST')) continue;
    const field = query[route.field.slice('Query.'.length)];
    const page = field ? getNamedType(field.type) : undefined;
    if (!field || !isObjectType(page) || !('pagination' in page.getFields())) continue;
    const data = page.getFields().data;
    if (data) yield { route, method: route.method, field, row: getNamedType(data.type).name };
  }
}

function listsOf(schema: GraphQLSchema): Map<string, MarketList> {
  const found = new Map<string, MarketList>();
  for (const { route, method, field, row } of pageRoutes(schema)) {
    const family = FAMILIES[row];
    if (!family) continue;
    // Every argument is a variable; one that has a default may be left out (then the default applies).
    const variables = field.args.map((arg) => `$${arg.name}: ${String(arg.defaultValue !== undefined ? getNullableType(arg.type) : arg.type)}`);
    const passed = field.args.map((arg) => `${arg.name}: $${arg.name}`);
    // The page itself is empty under a restriction (the ids are reported to it): nothing of it is selected.
    const document = parse(`query SavedSearchRun(${variables.join(', ')}) { ${field.name}(${passed.join(', ')}) { __typename } }`);
    const run = compileQuery(schema, document, 'SavedSearchRun');
    if (!isCompiledQuery(run)) throw new Error(`saved searches: ${route.field} cannot be compiled: ${JSON.stringify(run.errors)}`);
    const name = listName(method, publicPath(route));
    const pathParams = pathParamsOf(route);
    found.set(name, { engine: 'list', name, method, path: publicPath(route), route, field, family: family.family, publicId: family.publicId, run, pathParams });
  }
  return found;
}

const pathParamsOf = (route: RestRoute) => route.path.split('/').filter((segment) => segment.startsWith(':')).map((segment) => segment.slice(1));

/** The route table's Query routes whose page's items are a FEEDS type (the event feed). */
function feedsOf(schema: GraphQLSchema): ListRoute[] {
  const found: ListRoute[] = [];
  for (const { route, method, field, row } of pageRoutes(schema)) {
    if (!FEEDS.has(row)) continue;
    found.push({ engine: 'feed', name: listName(method, publicPath(route)), method, path: publicPath(route), route, field, pathParams: pathParamsOf(route) });
  }
  return found;
}

/** The market list a saved search names, or the validation error naming the lists it may name. */
export async function marketList(method: string, path: string): Promise<MarketList> {
  const all = await marketLists();
  const list = all.get(listName(method, path));
  if (list) return list;
  throw validationError([{ argument: 'path', expected: [`method and path must name a market list: ${[...all.keys()].join(', ')}`] }]);
}

/** What running a list as a saved search may meet, beside its rows. */
export type RunFailure =
  /** The route refused the arguments or the caller (its own error: validation_error, forbidden, …). */
  | { kind: 'refused'; error: GraphQLError }
  /** More rows than the bound of a baseline. */
  | { kind: 'too-many'; upTo: number };

export class ListRunFailed extends Error {
  constructor(readonly failure: RunFailure) {
    super(failure.kind === 'refused' ? failure.error.message : `more than ${failure.upTo} rows`);
  }
}

/** Violations of the saved params named `params.<argument>`, as the route would name the argument. */
const inParams = (violations: ArgumentViolation[]) => violations.map((v) => ({ ...v, argument: v.argument ? `params.${v.argument}` : 'params' }));

/**
 * The route's arguments from the params of whatever reads the whole list (`reader`: a saved search, an export), read
 * as REST reads a request (a GET list's from a query string, a POST list's from a JSON body); refused as the route
 * would refuse them, with the parameter at fault named `params.<name>`. A parameter the route does not have, or one
 * that pages it, is refused too: a saved search or an export that quietly ignored a misspelt filter would read the
 * whole market.
 */
export function listArguments(list: ListRoute, params: Record<string, unknown>, reader: 'a saved search' | 'an export', pathParams: Record<string, string> = {}): Record<string, unknown> {
  const known = new Set(list.field.args.map((arg) => arg.name).filter((name) => !(name in pathParams)));
  const violations: ArgumentViolation[] = [];
  for (const name of Object.keys(params)) {
    if (!known.has(name)) violations.push({ argument: name, expected: [`${name} is not a parameter of ${list.name}`] });
    else if (PAGING.has(name)) violations.push({ argument: name, expected: [`${name} pages the list: ${reader} reads all of it, so give its filters and sort only`] });
  }
  if (violations.length) throw validationError(inParams(violations));
  const query = new URLSearchParams();
  let body: Record<string, unknown> | null = null;
  if (list.method === 'GET') {
    for (const [name, value] of Object.entries(params)) {
      if (value === undefined || value === null) continue;
      for (const item of Array.isArray(value) ? value : [value]) query.append(name, typeof item === 'object' ? JSON.stringify(item) : String(item));
    }
  } else {
    body = params;
  }
  const read = argumentsFromHttp(list.route, list.field.args, { pathParams, query, body });
  if (read.violations.length) throw validationError(inParams(read.violations.map((v) => ({ argument: v.argument, expected: v.expected }))));
  return read.values;
}

/** The services a run reads through (the request's, or the dispatch transaction's connection: src/events/saved-searches.ts). */
export type RunServices = Pick<AppServices, 'prisma' | 'pool' | 'ledger' | 'authenticate' | 'rateLimiter' | 'publicBaseUrl' | 'startedAt'>;

/** Who a saved search runs as: its workspace itself (no delegated user), as a full-access key of the workspace would. */
export function runPrincipal(workspace: Principal['workspace']): Principal {
  return {
    credential: { id: `saved-search:${workspace.id}`, name: 'saved search', description: null, accessLevel: 'full_access', expiresAt: null, createdAt: workspace.createdAt, lastUsedAt: null },
    workspace,
    delegatedUser: null,
  };
}

const NOT_IDEMPOTENT = () => ({ replayed: false as const, record: async <T>(_tx: unknown, value: T) => value });

/**
 * The ids (as the route shows them) of the list's rows among `rows.among` (ids the list engine filters on), or of all
 * its rows up to `rows.upTo` (more: ListRunFailed too-many). Uncharged: the run's meter is off. `rows.statement` runs
 * the list's one statement where the caller wants it (the consumer: on the dispatch connection).
 */
export async function runList(list: MarketList, values: Record<string, unknown>, services: RunServices, principal: Principal, rows: RowRestriction): Promise<string[]> {
  const context = runContext(services, principal, `saved-search-${principal.workspace.id}`);
  let errors: readonly GraphQLError[] | undefined;
  const found = await withRowRestriction(rows, async () => {
    errors = ((await list.run.query(undefined, context, values)) as ExecutionResult).errors;
  });
  // The route's refusal (its arguments, its caller) or its list's failure is in its errors.
  if (errors?.length) throw failureOf(errors);
  return found.map(list.publicId);
}

/** The context a list runs in: the services given, the principal, no meter, no idempotency. */
export function runContext(services: RunServices, principal: Principal, requestId: string): Context {
  return createContext({ ...services, metering: false }, {
    requestId,
    authorization: null,
    responseHeaders: new Map(),
    principal: Promise.resolve(principal),
    idempotentWrite: NOT_IDEMPOTENT,
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Lists named by their path as called (`/v1/brandtrackers/<id>/ads`), and their rows as REST shows them (exports)

/**
 * The market list a request names by its path as called, with the path's parameters; or the validation error naming
 * `path` (and the lists it may name).
 */
export async function marketListAt(method: string, path: string): Promise<{ list: ListRoute; pathParams: Record<string, string> }> {
  const { all, feeds } = await allLists();
  const candidates: ListRoute[] = [...all.values(), ...feeds];
  const below = path.startsWith('/v1/') ? path.slice(3) : null;
  const match = below === null ? null : matchRoute(candidates.map((list) => list.route), method, below);
  const list = match && !match.malformed.length ? candidates.find((candidate) => candidate.route === match.route) : undefined;
  if (match && list) return { list, pathParams: match.params };
  const names = candidates.map((candidate) => `${candidate.method} ${candidate.path.replace(/:(\w+)/g, '{$1}')}`);
  throw validationError([{ argument: 'path', expected: [`method and path must name a market list route as called (/v1/…): ${names.join(', ')}`] }]);
}

/** The route's list with every field REST selects for it (SOFA's selection: rest/operation.ts), compiled once. */
export async function rowsQuery(list: ListRoute): Promise<CompiledQuery> {
  if (list.rows) return list.rows;
  const { schema, operationOf } = await allLists();
  // The route's own REST operation (rest/operation.ts): the same selection.
  const operation = operationOf(list.route).document.definitions[0] as OperationDefinitionNode;
  const document: DocumentNode = { kind: Kind.DOCUMENT, definitions: [{ ...operation, name: { kind: Kind.NAME, value: 'ListRows' } }] };
  const compiled = compileQuery(schema, document, 'ListRows');
  if (!isCompiledQuery(compiled)) throw new Error(`market lists: ${list.route.field} cannot be compiled: ${JSON.stringify(compiled.errors)}`);
  list.rows = compiled;
  list.rowsDocument = document;
  return compiled;
}

/** The schema and the operation rowsQuery runs (what an item holds, for a file's columns). */
export async function rowsSelection(list: ListRoute): Promise<{ schema: GraphQLSchema; document: DocumentNode }> {
  await rowsQuery(list);
  return { schema: (await allLists()).schema, document: list.rowsDocument! };
}

/**
 * Runs the list with its REST selection in `context` and returns its `data`, each item as REST shows it (the route's
 * envelope rules applied: its omitNull keys). The caller sets the mode (the list engine's export mode reads a chunk).
 * A refusal is thrown as ListRunFailed (refused), its violations named as the route's.
 */
export async function runRows(list: ListRoute, values: Record<string, unknown>, context: Context): Promise<Record<string, unknown>[]> {
  return (await runPage(list, values, context)).data;
}

/** runRows' page: its items and its pagination as REST shows them (a feed's nextCursor). */
export async function runPage(list: ListRoute, values: Record<string, unknown>, context: Context): Promise<{ data: Record<string, unknown>[]; pagination: Record<string, unknown> }> {
  const query = await rowsQuery(list);
  const result = (await query.query(undefined, context, values)) as ExecutionResult;
  if (result.errors?.length) throw failureOf(result.errors);
  const page = envelope(list.route, '', result.data?.[list.field.name]);
  return { data: (page.data as Record<string, unknown>[] | undefined) ?? [], pagination: (page.pagination as Record<string, unknown> | undefined) ?? {} };
}

export function failureOf(errors: readonly GraphQLError[]): Error {
  for (const error of errors) {
    const original = error.originalError ?? error;
    if (original instanceof TooManyRows) return new ListRunFailed({ kind: 'too-many', upTo: original.upTo });
    if (isErrorCode(error.extensions?.code)) return new ListRunFailed({ kind: 'refused', error });
    if (original instanceof GraphQLError && isErrorCode(original.extensions?.code)) return new ListRunFailed({ kind: 'refused', error: original });
  }
  // A value the REST reading let through but GraphQL's coercion refused: still the saved params' fault.
  for (const error of errors) {
    const variable = /^Variable "\$(\w+)" (?:got invalid value|of required type)/.exec(error.message)?.[1];
    if (variable) return new ListRunFailed({ kind: 'refused', error: validationError([{ argument: `params.${variable}`, expected: [error.message.replace(/^Variable "\$\w+" /, `${variable}: `)] }]) });
  }
  const first = errors[0];
  return first.originalError ?? first;
}

/** A route's refusal as the saved search's: its violations named `params.<argument>`. */
export function asParamsError(error: GraphQLError): GraphQLError {
  const details = error.extensions?.details as { validationErrors?: { field: string; expected: string[] }[] } | undefined;
  if (error.extensions?.code !== 'validation_error' || !details?.validationErrors) return error;
  return validationError(details.validationErrors.map((v) => ({ argument: v.field.startsWith('params') ? v.field : `params.${v.field}`, expected: v.expected })));
}
