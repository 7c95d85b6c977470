import { useSofa } from '@graphql-yoga/plugin-sofa';
import { Response as FetsResponse } from 'fets';
import { parse, printType, type GraphQLField, type GraphQLSchema } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { Authenticator } from '../src/auth/authenticate.js';
import type { PrismaClient } from '../src/db/client.js';
import type { CreditHeaders } from '../src/metering/credit-headers.js';
import { estimateCost } from '../src/metering/dry-run.js';
import type { RateLimiter } from '../src/metering/rate-limit.js';
import type { Logger } from '../src/observability/logger.js';
import type { Readiness } from '../src/observability/readiness.js';
import { claimIdempotencyKey } from '../src/plugins/use-idempotency.js';
import { currentRequest, noteErrorCode, type RequestState } from '../src/plugins/use-request-state.js';
import { isPublicField } from '../src/schema/access.js';
import { BodyRefused, readBodyText, REFUSED_BODY_HEADERS } from '../src/plugins/use-request-body-limit.js';
import { argumentsFromHttp } from './arguments.js';
import { docsResponse } from './docs.js';
import { envelope } from './envelope.js';
import { methodNotAllowedFailure, notFoundFailure, restErrorFrom, validationFailure, type RestError } from './errors.js';
import { allowedMethods, matchRoute, type Routed } from './match.js';
import { isMultipart, readMultipart } from './multipart.js';
import { openApiDocument } from './openapi.js';
import type { ParamViolation, RestRoute } from './routes.js';

export const BASE_PATH = '/v1';

/**
 * Gives the Query and Mutation types an AST node when they have none (a code-first schema has none). SOFA reads each
 * operation's and argument's description from that node, and without it prints and parses the whole Query type once per
 * route and per argument, each description a slice that keeps the whole printed source alive (most of a small heap).
 */
function withRootTypeNodes(schema: GraphQLSchema): void {
  for (const type of [schema.getQueryType(), schema.getMutationType()]) {
    if (!type || type.astNode) continue;
    const [node] = parse(printType(type)).definitions;
    if (node?.kind === 'ObjectTypeDefinition') type.astNode = node;
  }
}

const routeOfRequest = new WeakMap<RequestState, RestRoute>();
/** What the field resolved to (already serialised by GraphQL), kept so the envelope is built without re-parsing SOFA's JSON. */
const dataOfRequest = new WeakMap<RequestState, unknown>();
/** Arguments sent as an explicit null (RestRoute.nullArgs), handed to the field past SOFA. */
const nullsOfRequest = new WeakMap<RequestState, string[]>();

/** Argument values as the resolver would see them: defaults filled in. */
function withDefaults(field: GraphQLField<unknown, unknown>, values: Record<string, unknown>): Record<string, unknown> {
  const all: Record<string, unknown> = {};
  for (const arg of field.args) if (arg.defaultValue !== undefined) all[arg.name] = arg.defaultValue;
  return { ...all, ...values };
}

function json(failure: RestError) {
  noteErrorCode(failure.body.error.code);
  return FetsResponse.json(failure.body, { status: failure.status as 400, headers: failure.headers });
}

function rootField(schema: GraphQLSchema, route: RestRoute): GraphQLField<unknown, unknown> {
  const [kind, name] = route.field.split('.') as ['Query' | 'Mutation', string];
  const type = kind === 'Query' ? schema.getQueryType() : schema.getMutationType();
  const field = type?.getFields()[name];
  if (!field) throw new Error(`rest/routes.ts names ${route.field}, which the schema does not have`);
  return field;
}

async function readBody(request: Request): Promise<{ body: Record<string, unknown> } | { error: string; refused?: true }> {
  let text: string;
  try {
    text = await readBodyText(request);
  } catch (error) {
    if (error instanceof BodyRefused) return { error: error.expected, refused: true };
    throw error;
  }
  if (!text.trim()) return { body: {} };
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)
      ? { body: parsed as Record<string, unknown> }
      : { error: 'body must be a JSON object' };
  } catch {
    return { error: 'body must be valid JSON' };
  }
}

/**
 * Where SOFA serves a route's field: a fixed path per field, below BASE_PATH, that only this plugin calls (it matches
 * the public path itself, with its parameters, in rest/match.ts). SOFA's router finds a fixed path in a map; a path
 * with parameters it finds by trying each route's URLPattern in turn, which costs a call to a parameterised route at
 * the end of the table more than its resolver.
 */
const sofaPath = (route: RestRoute) => `/_fields/${route.field}`;

/** Paths below BASE_PATH served outside the route table (here or by another plugin): a wrong method on them is a 405 too. */
const SERVED_OUTSIDE_THE_TABLE: Routed[] = [
  { method: 'GET', path: '/openapi.json' },
  { method: 'GET', path: '/ready' },
  { method: 'GET', path: '/docs' },
  { method: 'GET', path: '/docs/assets/:asset' },
  { method: 'GET', path: '/events/stream' },
  { method: 'GET', path: '/exports/:exportId/file' },
  { method: 'HEAD', path: '/exports/:exportId/file' },
];

/**
 * The REST /v1 surface: the route table decides which GraphQL field a request runs; this plugin
 * authenticates first (unless the field is public), turns path, query and body into typed arguments,
 * lets SOFA execute the field through yoga, and puts the result or error into the specification's envelope.
 */
export function useRestApi(options: {
  schema: GraphQLSchema;
  routes: readonly RestRoute[];
  authenticate: Authenticator;
  rateLimiter: RateLimiter;
  prisma: PrismaClient;
  /** Writes X-Credits-Remaining and X-Usage-Cost: 0 for an authenticated call (metered calls then write theirs). */
  creditHeaders?: CreditHeaders;
  readiness?: Readiness;
  logger?: Logger;
}): Plugin {
  const { schema, routes, authenticate, rateLimiter, prisma, creditHeaders, readiness, logger } = options;
  const fields = new Map(routes.map((route) => [route, rootField(schema, route)]));
  const everyPath: Routed[] = [...routes, ...SERVED_OUTSIDE_THE_TABLE];
  let openApi: string | undefined;
  let sofaServerContext: Parameters<NonNullable<Plugin['onRequest']>>[0]['serverContext'] | undefined;
  const failed = (errors: readonly unknown[], state: RequestState | undefined) => {
    const failure = restErrorFrom(errors, state?.requestId ?? '', state ? routeOfRequest.get(state) : undefined);
    // An error already masked by yoga (src/server.ts) was logged there; one raised outside the execution is logged here.
    const masked = errors.some((e) => (e as { extensions?: { code?: unknown } } | null)?.extensions?.code === failure.body.error.code);
    if (failure.body.error.code === 'internal_error' && !masked) logger?.error({ requestId: state?.requestId, err: errors[0] }, 'internal error');
    if (failure.body.error.code === 'service_unavailable' && !masked) logger?.warn({ requestId: state?.requestId, err: errors[0] }, 'database unavailable');
    return failure;
  };
  const sofa = useSofa({
    basePath: BASE_PATH,
    routes: Object.fromEntries(routes.map((route) => [route.field, { method: route.method, path: sofaPath(route), responseStatus: (route.status ?? 200) as 200, tags: route.tags }])),
    errorHandler: (errors) => json(failed(errors, currentRequest())),
  });

  return {
    onYogaInit: sofa.onYogaInit,
    onSchemaChange(payload) {
      withRootTypeNodes(payload.schema);
      return sofa.onSchemaChange!(payload);
    },
    onExecute({ args }) {
      const state = currentRequest();
      if (!state?.rest) return;
      // SOFA drops null parameters; an explicit null the route declares (`parentId: null`) reaches the field as null.
      const nulls = nullsOfRequest.get(state);
      if (nulls?.length) args.variableValues = { ...args.variableValues, ...Object.fromEntries(nulls.map((name) => [name, null])) };
      return {
        onExecuteDone({ result, setResult }) {
          if (!('data' in result) || result.errors?.length) return; // errors go through SOFA's error handler
          const route = routeOfRequest.get(state);
          if (!route || !result.data) return;
          const name = route.field.slice(route.field.indexOf('.') + 1);
          dataOfRequest.set(state, result.data[name]);
          // SOFA serialises what it is given into a response this plugin never sends: give it null, not the data.
          setResult({ ...result, data: { ...result.data, [name]: null } });
        },
      };
    },
    async onRequest(payload) {
      const { url, endResponse } = payload;
      if (url.pathname !== BASE_PATH && !url.pathname.startsWith(`${BASE_PATH}/`)) return;
      const state = currentRequest()!;
      try {
        await serve(payload, state);
      } catch (error) {
        // Whatever escaped the steps below is still answered in the envelope, and logged with the request id.
        endResponse(json(failed([error], state)));
      }
    },
  };

  async function serve(payload: Parameters<NonNullable<Plugin['onRequest']>>[0], state: RequestState): Promise<void> {
    const { request, url, endResponse } = payload;
    const path = url.pathname.slice(BASE_PATH.length) || '/';
    if (request.method === 'GET' && path === '/openapi.json') {
      state.route = `${BASE_PATH}/openapi.json`;
      openApi ??= JSON.stringify(openApiDocument(schema, routes));
      return endResponse(new FetsResponse(openApi, { headers: { 'content-type': 'application/json; charset=utf-8' } }));
    }
    if (request.method === 'GET' && path === '/ready' && readiness) {
      state.route = `${BASE_PATH}/ready`;
      const report = await readiness.check();
      return endResponse(FetsResponse.json({ requestId: state.requestId, ...report }, { status: report.status === 'ready' ? 200 : (503 as 200), headers: { 'cache-control': 'no-store' } }));
    }
    const docs = await docsResponse(request.method, path);
    if (docs) {
      state.route = `${BASE_PATH}/docs`;
      return endResponse(docs);
    }

    let match = matchRoute(routes, request.method, path);
    if (!match) {
      const allowed = allowedMethods(everyPath, path);
      if (allowed.length && !allowed.includes(request.method)) return endResponse(json(methodNotAllowedFailure(request.method, url.pathname, allowed, state.requestId)));
      return endResponse(json(notFoundFailure(`No route ${request.method} ${url.pathname}.`, state.requestId)));
    }
    // A route whose dry run is a field of its own (an export's price counts its rows) runs that field instead.
    const dryRunRoute = match.route.dryRunField && url.searchParams.get('dryRun') === 'true' ? routes.find((route) => route.field === match!.route.dryRunField) : undefined;
    if (dryRunRoute) match = { ...match, route: dryRunRoute };
    const field = fields.get(match.route)!;
    routeOfRequest.set(state, match.route);
    state.route = `${BASE_PATH}${match.route.path === '/' ? '' : match.route.path}`;
    state.rest = true;
    state.dryRun = url.searchParams.get('dryRun') === 'true' && !dryRunRoute;

    // Authentication, then the rate limit, before anything else touches the database.
    const principal = isPublicField(field) ? null : (state.principal ??= authenticate(request.headers.get('authorization')));
    const write = match.route.field.startsWith('Mutation.');
    try {
      if (principal) {
        // A refused key takes a token from its client address's bucket: past it, the answer is 429.
        const { credential, workspace } = await principal.catch(async (error: unknown) => Promise.reject(await rateLimiter.refusal(error, state.clientAddress)));
        await rateLimiter.check(credential.id, write ? 'write' : 'read', state.responseHeaders);
        await creditHeaders?.(workspace.id, state.responseHeaders);
      }
    } catch (error) {
      return endResponse(json(restErrorFrom([error], state.requestId, match.route)));
    }

    let body: Record<string, unknown> | null = null;
    const multipart = isMultipart(request);
    // A DELETE may carry a JSON body (the bulk and folder deletes take their ids and `confirm` there).
    if (match.route.method !== 'GET') {
      const read = multipart ? await readMultipart(request) : await readBody(request);
      if ('error' in read) {
        const failure = validationFailure([{ argument: '', location: 'body', expected: [read.error] }], state.requestId);
        return endResponse(json(read.refused ? { ...failure, headers: { ...failure.headers, ...REFUSED_BODY_HEADERS } } : failure));
      }
      body = read.body;
    }
    const read = argumentsFromHttp(match.route, field.args, { pathParams: match.params, query: url.searchParams, body, bodyIsText: multipart });
    const { values } = read;
    // A path segment whose percent-escapes do not decode is refused here: SOFA's router would decode it again, and throw.
    const undecodable: ParamViolation[] = match.malformed.map((name) => ({ argument: name, location: 'path', expected: [`${name} must be valid percent-encoded UTF-8`] }));
    const violations = [...undecodable, ...read.violations.filter((v) => !match.malformed.includes(v.argument))];
    if (violations.length) return endResponse(json(validationFailure(violations, state.requestId)));
    const nulls = Object.keys(values).filter((name) => values[name] === null);
    if (nulls.length) nullsOfRequest.set(state, nulls);
    if (state.dryRun && principal) {
      const cost = await estimateCost(prisma, (await principal).workspace.id, [{ field: match.route.field, args: withDefaults(field, values) }]);
      return endResponse(FetsResponse.json({ requestId: state.requestId, ...cost }));
    }
    if (write && principal) {
      const kept = await claimIdempotencyKey(state, await principal, [field]);
      if (kept) return endResponse(kept);
    }

    // SOFA re-reads the arguments at the field's own path: GET and DELETE values as the request's parameters (the
    // strings a query string would give, lists as lists; SOFA parses the query string again for each argument it
    // does not find there), others as a JSON body.
    const target = new URL(`${BASE_PATH}${sofaPath(match.route)}`, url);
    let init: RequestInit = { method: request.method, headers: request.headers };
    let params: Record<string, string | string[]> = {};
    if (match.route.method === 'GET' || match.route.method === 'DELETE') {
      params = Object.fromEntries(Object.entries(values).map(([name, value]) => [name, Array.isArray(value) ? value.map(String) : String(value)]));
    } else {
      init = { ...init, body: JSON.stringify(values), headers: { ...Object.fromEntries(request.headers), 'content-type': 'application/json' } };
    }
    let answer: Response | undefined;
    // The server's own Request and Headers classes (whatwg-node), as yoga's: no conversion between implementations.
    const { Request: ServerRequest, Headers: ServerHeaders } = payload.fetchAPI;
    // SOFA's router gives each call a context created from the server context it is handed (Object.create): one
    // constant object instead of this request's keeps V8's shapes of those contexts shared, where a fresh prototype
    // per request made every property the context gets a slow path.
    // Nothing below reads the Node request or response from it; the call's own state is in currentRequest().
    sofaServerContext ??= { waitUntil: payload.serverContext.waitUntil };
    await sofa.onRequest!({ ...payload, serverContext: sofaServerContext, request: Object.assign(new ServerRequest(target.toString(), init), { params }), url: target, endResponse: (response) => (answer = response) });
    if (!answer) return endResponse(json(notFoundFailure(`No route ${request.method} ${url.pathname}.`, state.requestId)));
    if (answer.status >= 400) return endResponse(answer);
    const headers = new ServerHeaders(answer.headers);
    headers.delete('content-length');
    const data = dataOfRequest.has(state) ? dataOfRequest.get(state) : await answer.json();
    // The server's own Response class: its string body is written to the socket as it is (no web stream).
    return endResponse(FetsResponse.json(envelope(match.route, state.requestId, data), { status: answer.status as 200, headers }));
  }
}
