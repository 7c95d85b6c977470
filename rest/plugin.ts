import { Response as FetsResponse } from 'fets';
import type { ExecutionResult, GraphQLField, GraphQLSchema } from 'graphql';
import type { Plugin, YogaServerInstance } from 'graphql-yoga';
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
import { routeOperations, type RouteOperation } from './operation.js';
import { EVENT_STREAM_ROUTE, EXPORT_FILE_ROUTE, type ParamViolation, type RestRoute } from './routes.js';

export const BASE_PATH = '/v1';

const routeOfRequest = new WeakMap<RequestState, RestRoute>();

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

/** A HEAD's answer: the GET's status and headers, no body. */
function withoutBody(response: Response): Response {
  return new FetsResponse(null, { status: response.status, headers: response.headers });
}

/** Paths below BASE_PATH served outside the route table (here or by another plugin): a wrong method on them is a 405 too. */
const SERVED_OUTSIDE_THE_TABLE: Routed[] = [
  ...['/openapi.json', '/ready', '/docs', '/docs/assets/:asset'].flatMap((path) => [
    { method: 'GET', path },
    { method: 'HEAD', path },
  ]),
  // An event stream is only opened by GET: a HEAD would hold a connection open to send nothing.
  { method: 'GET', path: EVENT_STREAM_ROUTE.path },
  { method: 'GET', path: EXPORT_FILE_ROUTE.path },
  { method: 'HEAD', path: EXPORT_FILE_ROUTE.path },
];

/**
 * The REST /v1 surface: the route table decides which GraphQL field a request runs; this plugin
 * authenticates first (unless the field is public), turns path, query and body into typed arguments,
 * runs the field's operation (SOFA's document: rest/operation.ts) through yoga's envelop, as /graphql runs a query,
 * and puts the result or error into the specification's envelope.
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
  // HEAD is answered wherever GET is (RFC 9110 §9.3.2): the GET runs, and is metered, and its body is left out.
  const everyPath: Routed[] = [...routes.flatMap((route) => (route.method === 'GET' ? [route, { method: 'HEAD', path: route.path }] : [route])), ...SERVED_OUTSIDE_THE_TABLE];
  let openApi: string | undefined;
  let getEnveloped: YogaServerInstance<Record<string, unknown>, Record<string, unknown>>['getEnveloped'] | undefined;
  let operationOf: ((route: RestRoute) => RouteOperation) | undefined;
  const failed = (errors: readonly unknown[], state: RequestState | undefined) => {
    const failure = restErrorFrom(errors, state?.requestId ?? '', state ? routeOfRequest.get(state) : undefined);
    // An error already masked by yoga (src/server.ts) was logged there; one raised outside the execution is logged here.
    const masked = errors.some((e) => (e as { extensions?: { code?: unknown } } | null)?.extensions?.code === failure.body.error.code);
    if (failure.body.error.code === 'internal_error' && !masked) logger?.error({ requestId: state?.requestId, err: errors[0] }, 'internal error');
    if (failure.body.error.code === 'service_unavailable' && !masked) logger?.warn({ requestId: state?.requestId, err: errors[0] }, 'database unavailable');
    return failure;
  };

  return {
    onYogaInit({ yoga }) {
      getEnveloped = yoga.getEnveloped as typeof getEnveloped;
    },
    onSchemaChange({ schema: current }) {
      operationOf = routeOperations(current);
    },
    async onRequest(payload) {
      const { url, endResponse } = payload;
      if (url.pathname !== BASE_PATH && !url.pathname.startsWith(`${BASE_PATH}/`)) return;
      const state = currentRequest()!;
      const head = payload.request.method === 'HEAD';
      const served = head ? { ...payload, endResponse: (response: Response) => payload.endResponse(withoutBody(response)) } : payload;
      try {
        await serve(served, state, head ? 'GET' : payload.request.method);
      } catch (error) {
        // Whatever escaped the steps below is still answered in the envelope, and logged with the request id.
        served.endResponse(json(failed([error], state)));
      }
    },
  };

  /** `method` is the request's, or GET for a HEAD (whose answer loses its body on the way out). */
  async function serve(payload: Parameters<NonNullable<Plugin['onRequest']>>[0], state: RequestState, method: string): Promise<void> {
    const { request, url, endResponse } = payload;
    const path = url.pathname.slice(BASE_PATH.length) || '/';
    if (method === 'GET' && path === '/openapi.json') {
      state.route = `${BASE_PATH}/openapi.json`;
      openApi ??= JSON.stringify(openApiDocument(schema, routes));
      return endResponse(new FetsResponse(openApi, { headers: { 'content-type': 'application/json; charset=utf-8' } }));
    }
    if (method === 'GET' && path === '/ready' && readiness) {
      state.route = `${BASE_PATH}/ready`;
      const report = await readiness.check();
      return endResponse(FetsResponse.json({ requestId: state.requestId, ...report }, { status: report.status === 'ready' ? 200 : (503 as 200), headers: { 'cache-control': 'no-store' } }));
    }
    const docs = await docsResponse(method, path);
    if (docs) {
      state.route = `${BASE_PATH}/docs`;
      return endResponse(docs);
    }

    let match = matchRoute(routes, method, path);
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
    // A path segment whose percent-escapes do not decode is the client's 400, whatever the argument's type.
    const undecodable: ParamViolation[] = match.malformed.map((name) => ({ argument: name, location: 'path', expected: [`${name} must be valid percent-encoded UTF-8`] }));
    const violations = [...undecodable, ...read.violations.filter((v) => !match.malformed.includes(v.argument))];
    if (violations.length) return endResponse(json(validationFailure(violations, state.requestId)));
    if (state.dryRun && principal) {
      const cost = await estimateCost(prisma, (await principal).workspace.id, [{ field: match.route.field, args: withDefaults(field, values) }]);
      return endResponse(FetsResponse.json({ requestId: state.requestId, ...cost }));
    }
    if (write && principal) {
      const kept = await claimIdempotencyKey(state, await principal, [field]);
      if (kept) return endResponse(kept);
    }

    // The field's operation, through yoga's envelop as /graphql runs one (its context, its plugins' execute hooks,
    // graphql-jit, masked errors); no parse or validation: the document is built from the schema. Arguments
    // rest/arguments.ts did not set are left out; an explicit null a route declares (`parentId: null`) is sent as null.
    const operation = operationOf!(match.route);
    const enveloped = getEnveloped!({ request, waitUntil: payload.serverContext.waitUntil });
    let result: ExecutionResult;
    try {
      const contextValue = await enveloped.contextFactory();
      result = (await enveloped.execute({ schema: enveloped.schema, document: operation.document, contextValue, variableValues: values, operationName: operation.operationName })) as ExecutionResult;
    } catch (error) {
      return endResponse(json(failed([error], state)));
    }
    if (result.errors?.length) return endResponse(json(failed(result.errors, state)));
    // The server's own Response class: its string body is written to the socket as it is (no web stream).
    return endResponse(FetsResponse.json(envelope(match.route, state.requestId, result.data?.[operation.field] ?? null), { status: (match.route.status ?? 200) as 200 }));
  }
}
