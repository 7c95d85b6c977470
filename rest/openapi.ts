import {
  getNamedType, GraphQLBoolean, GraphQLFloat, GraphQLID, GraphQLInt, GraphQLString, isEnumType, isInputObjectType, isInterfaceType,
  isListType, isNonNullType, isObjectType, isUnionType, type GraphQLArgument, type GraphQLField, type GraphQLInputField,
  type GraphQLNamedType, type GraphQLOutputType, type GraphQLInputType, type GraphQLSchema,
} from 'graphql';
import { z } from 'zod';
import { ERRORS } from '../src/errors.js';
import { priceOf } from '../src/metering/prices.js';
import { isPublicField } from '../src/schema/access.js';
import { violationsFromIssues } from '../src/schema/validation.js';
import { notFoundFailure, validationFailure } from './errors.js';
import { argumentsFromHttp } from './arguments.js';
import { EVENT_STREAM_ROUTE, EXPORT_FILE_ROUTE, locationOf, MAX_QUERY_LIST } from './routes.js';
import { CONTENT_TYPES } from '../src/schema/exports/service.js';
import type { ParamViolation, RestRoute } from './routes.js';

// The OpenAPI 3.1 document of the REST surface (GET /v1/openapi.json, committed as rest/openapi.json), built from
// the route table and the GraphQL schema: each route under its full path, its parameters with the bounds and enum
// values the resolvers validate (their zod schemas, read from the arguments), its JSON body, its answer in its
// envelope, the error envelope for each status it can answer, and the request-id, rate-limit and metering headers.

type Schema = Record<string, unknown>;
const INT32 = { minimum: -(2 ** 31), maximum: 2 ** 31 - 1 };
const BASE_PATH = '/v1';

/** The zod schemas the validation plugin attached to an argument or input field. */
const zodSchemas = (node: GraphQLArgument | GraphQLInputField): z.ZodType[] =>
  (node.extensions as Record<string, { schemas?: z.ZodType[] } | undefined>)['@pothos/plugin-validation']?.schemas ?? [];

/** The JSON Schema keywords of the zod schemas the validation plugin attached to an argument or input field. */
function bounds(node: GraphQLArgument | GraphQLInputField): Schema[] {
  return zodSchemas(node).map((schema) => {
    const { $schema: _ignored, ...json } = z.toJSONSchema(schema, { unrepresentable: 'any', io: 'input' }) as Schema;
    return json;
  });
}

/** Adds `extra`'s keywords to `base` where base has none (its type stays the GraphQL one's); lists merge their items. */
function merge(base: Schema, extra: Schema): Schema {
  const out: Schema = { ...base };
  for (const [key, value] of Object.entries(extra)) {
    if (key === 'type' || key === 'anyOf' || key === 'oneOf' || key === 'allOf') continue;
    if (key === 'items' && typeof out.items === 'object' && out.items && typeof value === 'object') out.items = merge(out.items as Schema, value as Schema);
    else if ((key === 'minimum' || key === 'maximum') && typeof out[key] === 'number' && typeof value === 'number') {
      out[key] = key === 'minimum' ? Math.max(out[key] as number, value) : Math.min(out[key] as number, value); // the tighter bound
    } else if (!(key in out)) out[key] = value;
  }
  if (out.type === 'integer') {
    // GraphQL's Int is 32-bit: zod's safe-integer bounds are wider than what the server accepts.
    if (typeof out.maximum !== 'number' || (out.maximum as number) > INT32.maximum) out.maximum = INT32.maximum;
    if (typeof out.minimum !== 'number' || (out.minimum as number) < INT32.minimum) out.minimum = INT32.minimum;
  }
  return out;
}

class Builder {
  readonly components: Record<string, Schema> = {};

  constructor(private readonly schema: GraphQLSchema) {}

  private scalar(type: GraphQLNamedType): Schema {
    if (type === GraphQLInt) return { type: 'integer', format: 'int32', ...INT32 };
    if (type === GraphQLFloat) return { type: 'number' };
    if (type === GraphQLBoolean) return { type: 'boolean' };
    if (type === GraphQLString || type === GraphQLID) return { type: 'string' };
    if (type.name === 'Date') return { type: 'string', format: 'date' };
    if (type.name === 'DateTime') return { type: 'string', format: 'date-time' };
    if (type.name === 'SafeInt') return { type: 'integer', minimum: Number.MIN_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER };
    if (type.name === 'JSON') return {};
    return { type: 'string' };
  }

  private ref(type: GraphQLNamedType, build: () => Schema): Schema {
    if (!(type.name in this.components)) {
      this.components[type.name] = {}; // reserved first: types may refer to themselves
      this.components[type.name] = build();
    }
    return { $ref: `#/components/schemas/${type.name}` };
  }

  input(type: GraphQLInputType, node?: GraphQLArgument | GraphQLInputField): Schema {
    const inner = isNonNullType(type) ? type.ofType : type;
    let out: Schema;
    if (isListType(inner)) out = { type: 'array', items: this.input(inner.ofType) };
    else {
      const named = getNamedType(inner);
      if (isEnumType(named)) out = { type: 'string', enum: named.getValues().map((value) => value.name) };
      else if (isInputObjectType(named)) {
        return this.ref(named, () => {
          const fields = Object.values(named.getFields());
          const required = fields.filter((f) => isNonNullType(f.type) && f.defaultValue === undefined).map((f) => f.name);
          return {
            type: 'object',
            ...(named.description ? { description: named.description } : {}),
            properties: Object.fromEntries(fields.map((f) => [f.name, this.input(f.type, f)])),
            ...(required.length ? { required } : {}),
          };
        });
      } else out = this.scalar(named);
    }
    for (const extra of node ? bounds(node) : []) out = merge(out, extra);
    if (node?.description) out.description = node.description;
    if (node && 'defaultValue' in node && node.defaultValue !== undefined) out.default = node.defaultValue;
    return out;
  }

  output(type: GraphQLOutputType): Schema {
    const nullable = !isNonNullType(type);
    const inner = isNonNullType(type) ? type.ofType : type;
    let out: Schema;
    if (isListType(inner)) out = { type: 'array', items: this.output(inner.ofType) };
    else {
      const named = getNamedType(inner);
      if (isEnumType(named)) out = { type: 'string', enum: named.getValues().map((value) => value.name) };
      else if (isObjectType(named) || isInterfaceType(named)) {
        out = this.ref(named, () => {
          const fields = Object.values(named.getFields());
          return {
            type: 'object',
            ...(named.description ? { description: named.description } : {}),
            properties: Object.fromEntries(fields.map((f) => [f.name, f.description ? { ...this.output(f.type), description: f.description } : this.output(f.type)])),
          };
        });
      } else if (isUnionType(named)) out = { oneOf: named.getTypes().map((member) => this.output(member)) };
      else out = this.scalar(named);
    }
    return nullable ? { anyOf: [out, { type: 'null' }] } : out;
  }
}

const header = (description: string, schema: Schema = { type: 'integer' }) => ({ description, schema });

const HEADERS = {
  'X-Request-Id': header('The request id (the client\'s X-Request-Id when it sent a well-formed one); also in the body.', { type: 'string' }),
  'X-RateLimit-Limit': header('The API key\'s bucket size (burst).'),
  'X-RateLimit-Remaining': header('Requests left in the bucket.'),
  'X-RateLimit-Reset': header('Seconds until the bucket is full again.'),
  'X-Usage-Cost': header('Credits this call cost (0 on free routes).'),
  'X-Credits-Used': header('Credits this call used (metered calls).'),
  'X-Credits-Remaining': header('Credits the workspace has left after this call.'),
  'X-Credits-Source': header('Which pool paid: recurring, topup or hybrid (metered calls).', { type: 'string', enum: ['recurring', 'topup', 'hybrid'] }),
  'Retry-After': header('Seconds to wait before retrying (429, 503).'),
};

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Invalid request: `validation_error`, with `details.validationErrors[]` naming each field at fault.',
  401: 'No key, or a key that is not valid (missing_api_key, invalid_api_key, credential_not_found, credential_revoked, credential_expired).',
  402: 'Not enough credits (insufficient_credits): read GET /v1/usage; no blind retry.',
  403: 'The key may not do this (forbidden, workspace_public_api_disabled, workspace_public_api_suspended, delegated_user_access_revoked).',
  404: 'No such object in this workspace (not_found); an object of another workspace is answered the same way.',
  429: 'Too many requests for this key (rate_limited): wait Retry-After seconds.',
  500: 'An unexpected error (internal_error): retry with backoff and report the requestId.',
  503: 'A dependency is briefly unavailable (service_unavailable, auth_provider_unavailable): retry after Retry-After.',
};

const EXAMPLE_REQUEST_ID = '3f6c1b9e-8d2a-4f1e-9b7c-5a0d2e4c6f81';

/** An example envelope of each shared error status (true for every route that can answer it). */
const ERROR_EXAMPLES: Record<number, { code: string; message: string }> = {
  401: { code: 'missing_api_key', message: 'Missing API key: send Authorization: Bearer <API key>.' },
  402: { code: 'insufficient_credits', message: 'Not enough credits for this request: read GET /v1/usage.' },
  403: { code: 'forbidden', message: 'This API key may not do this.' },
  429: { code: 'rate_limited', message: 'Too many requests for this API key: retry after the Retry-After seconds.' },
  500: { code: 'internal_error', message: 'An unexpected error occurred.' },
  503: { code: 'service_unavailable', message: 'A dependency is briefly unavailable: retry after the Retry-After seconds.' },
};

/** A value outside an argument's bounds, from its JSON Schema keywords, or undefined when it has none to break. */
function outOfBounds(schema: Schema): unknown {
  if (typeof schema.maximum === 'number' && schema.maximum < INT32.maximum) return schema.maximum + 1;
  if (typeof schema.minimum === 'number' && schema.minimum > INT32.minimum) return schema.minimum - 1;
  if (typeof schema.maxLength === 'number') return 'x'.repeat(schema.maxLength + 1);
  return undefined;
}

/**
 * A 400 this route really answers, for its docs: a required parameter left out; else its first argument whose bounds
 * (the resolvers' zod schemas) can be broken, else whose type a text can break (REST's own coercion); a JSON route's
 * body that is not JSON at the last. Null when nothing the client sends can be refused (no arguments, no body).
 */
function badRequestExample(builder: Builder, route: RestRoute, field: GraphQLField<unknown, unknown>, inPath: readonly string[]): ParamViolation[] | null {
  const pathNames = new Set(inPath);
  const args = [...field.args].sort((a, b) => Number(pathNames.has(a.name)) - Number(pathNames.has(b.name)));
  const locationFor = (name: string) => (pathNames.has(name) ? 'path' : locationOf(route, name));
  const read = (arg: GraphQLArgument, raw: string | undefined) => {
    const location = locationFor(arg.name);
    const input = {
      pathParams: location === 'path' && raw !== undefined ? { [arg.name]: raw } : {},
      query: new URLSearchParams(location === 'query-string' && raw !== undefined ? { [arg.name]: raw } : {}),
      body: location === 'body' && raw !== undefined ? { [arg.name]: raw } : null,
    };
    return argumentsFromHttp(route, [arg], input).violations;
  };
  // A required parameter left out is refused before any other rule is read: where the route has one, that is its 400.
  for (const arg of args) {
    const violations = pathNames.has(arg.name) ? [] : read(arg, undefined);
    if (violations.length) return violations;
  }
  for (const arg of args) {
    const bad = outOfBounds(builder.input(arg.type, arg));
    if (bad === undefined) continue;
    for (const schema of zodSchemas(arg)) {
      const parsed = schema.safeParse(bad);
      if (parsed.success) continue;
      const [violation] = violationsFromIssues(parsed.error.issues.map((issue) => ({ ...issue, path: [arg.name, ...issue.path] })));
      if (violation) return [{ ...violation, location: locationFor(arg.name) }];
    }
  }
  for (const arg of args) {
    const violations = read(arg, 'not-a-value');
    if (violations.length) return violations;
  }
  if (route.method === 'POST' || route.method === 'PATCH') return [{ argument: '', location: 'body', expected: ['body must be valid JSON'] }];
  return null;
}

/** What the route's subject is called in its 404 ("The ad"), from its last path parameter. */
function subjectOf(pathNames: readonly string[]): string {
  const last = (pathNames[pathNames.length - 1] ?? 'object').replace(/Id$|Identifier$/, '').replace(/^identifier$/, 'shop');
  return `The ${last.replace(/[A-Z]/g, (c) => ` ${c.toLowerCase()}`)}`;
}

/** An error response of a route's own, with its example envelope. */
function errorResponse(description: string, example: unknown): Schema {
  return {
    description,
    headers: { 'X-Request-Id': HEADERS['X-Request-Id'] },
    content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' }, example } },
  };
}

/** The statuses whose response every route shares (components.responses). */
const sharedErrors = (statuses: readonly number[]) => Object.fromEntries(statuses.map((status) => [String(status), { $ref: `#/components/responses/Error${status}` }]));

/** A route's path as OpenAPI writes it: `/v1/ads/{adId}`. */
const openApiPath = (route: RestRoute) => `${BASE_PATH}${route.path === '/' ? '' : route.path.replace(/:([A-Za-z]+)/g, '{$1}')}`;

/** The route's own error responses with their examples: a 400 naming one of its parameters, a 404 naming its subject. */
function routeErrors(builder: Builder, route: RestRoute, field: GraphQLField<unknown, unknown>, pathNames: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const bad = badRequestExample(builder, route, field, pathNames);
  if (bad) out['400'] = errorResponse(ERROR_DESCRIPTIONS[400]!, validationFailure(bad, EXAMPLE_REQUEST_ID).body);
  if (pathNames.length) out['404'] = errorResponse(ERROR_DESCRIPTIONS[404]!, notFoundFailure(`${subjectOf(pathNames)} was not found.`, EXAMPLE_REQUEST_ID).body);
  return out;
}

/** The first sentence of a description in plain words (no backticks, no repeated route), for a summary. */
export function summaryOf(description: string): string {
  const plain = description.replace(/`/g, '').replace(/\s*\((?:GET|POST|PATCH|PUT|DELETE) \/v1[^)]*\)/g, '').trim();
  const sentence = /^.*?[.!?](?=\s|$)/.exec(plain)?.[0] ?? plain;
  const short = sentence.replace(/[.:]$/, '');
  return short.length <= 120 ? short : `${short.slice(0, short.lastIndexOf(' ', 117))}…`;
}

function components(builder: Builder): Schema {
  const codes = Object.keys(ERRORS);
  // The statuses whose example is true for every route (400 and 404 are each route's own: routeErrors).
  const responses = Object.fromEntries(Object.entries(ERROR_EXAMPLES).map(([status, example]) => [
    `Error${status}`,
    {
      description: ERROR_DESCRIPTIONS[Number(status)],
      headers: { 'X-Request-Id': HEADERS['X-Request-Id'], ...(status === '429' || status === '503' ? { 'Retry-After': HEADERS['Retry-After'] } : {}) },
      content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' }, example: { error: { ...example, requestId: EXAMPLE_REQUEST_ID } } } },
    },
  ]));
  return {
    securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'A workspace API key: `Authorization: Bearer <API key>`.' } },
    schemas: {
      ErrorEnvelope: {
        type: 'object',
        required: ['error'],
        properties: {
          error: {
            type: 'object',
            required: ['code', 'message', 'requestId'],
            properties: {
              code: { type: 'string', enum: codes, description: 'Rely on the code, not on the message.' },
              message: { type: 'string' },
              requestId: { type: 'string' },
              details: {
                type: 'object',
                properties: {
                  validationErrors: {
                    type: 'array',
                    items: {
                      type: 'object',
                      required: ['field', 'location', 'expected'],
                      properties: { field: { type: 'string', description: 'Where the value is: `<location>.<name>`.' }, location: { type: 'string', enum: ['path', 'query-string', 'body'] }, expected: { type: 'array', items: { type: 'string' } } },
                    },
                  },
                },
              },
            },
          },
        },
      },
      ...builder.components,
    },
    responses,
  };
}

function fieldOf(schema: GraphQLSchema, route: RestRoute): GraphQLField<unknown, unknown> {
  const [kind, name] = route.field.split('.') as ['Query' | 'Mutation', string];
  return (kind === 'Query' ? schema.getQueryType() : schema.getMutationType())!.getFields()[name]!;
}

function operation(builder: Builder, route: RestRoute, field: GraphQLField<unknown, unknown>, operationId: string): Schema {
  const pathNames = [...route.path.matchAll(/:([A-Za-z]+)/g)].map((m) => m[1]!);
  const parameters: Schema[] = [];
  const bodyProperties: Record<string, Schema> = {};
  const bodyRequired: string[] = [];
  for (const arg of field.args) {
    const required = isNonNullType(arg.type) && arg.defaultValue === undefined;
    const schema = builder.input(arg.type, arg);
    if (pathNames.includes(arg.name)) parameters.push({ name: arg.name, in: 'path', required: true, schema });
    else if (locationOf(route, arg.name) === 'query-string') {
      const list = isListType(isNonNullType(arg.type) ? arg.type.ofType : arg.type);
      parameters.push({
        name: arg.name,
        in: 'query',
        required,
        schema: list ? { ...schema, maxItems: Math.min(MAX_QUERY_LIST, (schema.maxItems as number | undefined) ?? MAX_QUERY_LIST) } : schema,
        ...(list ? { style: 'form', explode: true, description: `${arg.description ? `${arg.description} ` : ''}Repeat the parameter or separate values with commas.` } : {}),
      });
    } else {
      bodyProperties[arg.name] = schema;
      if (required) bodyRequired.push(arg.name);
    }
  }
  const open = isPublicField(field);
  const price = priceOf(route.field);
  const metered = price !== undefined && price.kind !== 'free';
  const type = builder.output(field.type);
  const data = route.envelope === 'single'
    ? { type: 'object', required: ['requestId', 'data'], properties: { requestId: { type: 'string' }, data: type } }
    : { allOf: [{ type: 'object', required: ['requestId'], properties: { requestId: { type: 'string' } } }, type] };
  const headers: Record<string, unknown> = { 'X-Request-Id': HEADERS['X-Request-Id'] };
  if (!open) Object.assign(headers, { 'X-RateLimit-Limit': HEADERS['X-RateLimit-Limit'], 'X-RateLimit-Remaining': HEADERS['X-RateLimit-Remaining'], 'X-RateLimit-Reset': HEADERS['X-RateLimit-Reset'], 'X-Usage-Cost': HEADERS['X-Usage-Cost'], 'X-Credits-Remaining': HEADERS['X-Credits-Remaining'] });
  if (metered) Object.assign(headers, { 'X-Credits-Used': HEADERS['X-Credits-Used'], 'X-Credits-Source': HEADERS['X-Credits-Source'] });
  const errors = [...(open ? [] : [401, 403]), ...(metered ? [402] : []), ...(open ? [] : [429]), 500, ...(open ? [] : [503])];
  const costNote = !price || price.kind === 'free' ? 'Free.' : price.kind === 'perItem' ? 'One credit when an item is returned.' : `One credit per returned row (holds \`${price.limitArg}\`, default ${price.defaultLimit}, before it runs).`;
  return {
    operationId,
    tags: route.tags,
    summary: field.description ? summaryOf(field.description) : `${route.method} ${BASE_PATH}${route.path}`,
    description: `${field.description ? `${field.description} ` : ''}GraphQL field \`${route.field}\`. ${open ? 'Open (no key).' : costNote}`,
    ...(open ? { security: [] } : {}),
    ...(parameters.length ? { parameters } : {}),
    ...(Object.keys(bodyProperties).length || route.method === 'POST' || route.method === 'PATCH'
      ? {
          requestBody: {
            required: bodyRequired.length > 0,
            content: { 'application/json': { schema: { type: 'object', properties: bodyProperties, ...(bodyRequired.length ? { required: bodyRequired } : {}), description: 'Unknown fields are ignored.' } } },
          },
        }
      : {}),
    responses: {
      [String(route.status ?? 200)]: { description: 'The answer in its envelope.', headers, content: { 'application/json': { schema: data } } },
      ...routeErrors(builder, route, field, pathNames),
      ...sharedErrors(errors),
    },
  };
}

/** A request header a route reads (Range, If-None-Match, Last-Event-ID). */
const requestHeader = (name: string, description: string): Schema => ({ name, in: 'header', required: false, schema: { type: 'string' }, description });

/** An error of a route's own with its code and message (the envelope's example). */
const ownError = (description: string, code: string, message: string) => errorResponse(description, { error: { code, message, requestId: EXAMPLE_REQUEST_ID } });

/** GET /v1/exports/{exportId}/file (rest/export-file.ts): the file itself, outside the route table since it has no JSON envelope. */
function exportFileOperation(builder: Builder, schema: GraphQLSchema): Schema {
  const base = operation(builder, EXPORT_FILE_ROUTE, fieldOf(schema, EXPORT_FILE_ROUTE), 'exportFile');
  const fileHeaders = {
    'X-Request-Id': HEADERS['X-Request-Id'],
    'X-RateLimit-Limit': HEADERS['X-RateLimit-Limit'],
    'X-RateLimit-Remaining': HEADERS['X-RateLimit-Remaining'],
    'X-RateLimit-Reset': HEADERS['X-RateLimit-Reset'],
    'Cache-Control': header('`private, no-cache`: revalidate with If-None-Match.', { type: 'string' }),
    'Content-Disposition': header('`attachment; filename="export-<id>.<ndjson|csv|parquet>"`.', { type: 'string' }),
    ETag: header('The file\'s version: send it back in If-None-Match or If-Range.', { type: 'string' }),
    'Accept-Ranges': header('`bytes`.', { type: 'string' }),
    Expires: header('When the file expires (the export\'s expiresAt), as an HTTP date.', { type: 'string' }),
  };
  const withLength = { ...fileHeaders, 'Content-Length': header('Bytes in this answer.') };
  const file = { schema: { type: 'string', contentMediaType: 'application/octet-stream' } };
  const content = Object.fromEntries(Object.values(CONTENT_TYPES).map((type) => [type, file]));
  return {
    operationId: 'exportFile',
    tags: EXPORT_FILE_ROUTE.tags,
    summary: "A finished export's file",
    description:
      "REST only (a file has no GraphQL field). The export's file once its state is `done`, until `expiresAt`: NDJSON (`application/x-ndjson`), CSV (`text/csv`) or Parquet " +
      '(`application/vnd.apache.parquet`) as the export asked. Streamed from EXPORT_DIR or the S3-compatible store. `Range: bytes=<start>-<end>` (one range; `bytes=-<n>` the last n) ' +
      'is answered 206 with Content-Range, a range outside the file 416; `If-Range` with the ETag resumes only the same file; `If-None-Match` with it is a 304. HEAD answers the headers. ' +
      "Free (the export's rows were charged when they were written); rate-limited as a read. Another workspace's export is answered as a missing one.",
    parameters: [
      ...((base.parameters as Schema[] | undefined) ?? []),
      requestHeader('Range', 'One byte range, `bytes=<start>-[<end>]` or `bytes=-<suffix length>`; several ranges or another unit are answered with the whole file.'),
      requestHeader('If-Range', "The ETag of the file a range continues: a different file is answered whole (200)."),
      requestHeader('If-None-Match', 'An ETag: the same file is answered 304 without a body.'),
    ],
    responses: {
      200: { description: 'The whole file.', headers: withLength, content },
      206: { description: 'The range asked for.', headers: { ...withLength, 'Content-Range': header('`bytes <start>-<end>/<size>`.', { type: 'string' }) }, content },
      304: { description: 'Not modified (If-None-Match matched the ETag).', headers: fileHeaders },
      400: errorResponse(ERROR_DESCRIPTIONS[400]!, validationFailure([{ argument: 'exportId', location: 'path', expected: ['exportId must be a UUID'] }], EXAMPLE_REQUEST_ID).body),
      404: ownError("No such export in this workspace, or its file is gone (cancelled, failed, expired or missing from the store): not_found.", 'not_found', "The export's file (the export is expired) was not found."),
      409: ownError('The export is still queued or running (conflict): read GET /v1/exports/{exportId} until its state is done.', 'conflict', 'The export is running: its file is ready once its state is done (GET /v1/exports/{exportId}).'),
      416: { description: 'A range that selects no byte: it starts past the end, ends before it starts, is `bytes=-0`, or asks anything of an empty file.', headers: { ...fileHeaders, 'Content-Range': header('`bytes */<size>`.', { type: 'string' }) } },
      ...sharedErrors([401, 403, 429, 500, 503]),
    },
  };
}

/** GET /v1/events/stream (rest/event-stream.ts): the feed live as Server-Sent Events, the subscription's arguments in its query string. */
function eventStreamOperation(builder: Builder, schema: GraphQLSchema): Schema {
  const field = schema.getSubscriptionType()!.getFields().events!;
  const base = operation(builder, EVENT_STREAM_ROUTE, field, 'eventStream');
  const baseResponses = base.responses as Record<string, Schema>;
  return {
    operationId: 'eventStream',
    tags: EVENT_STREAM_ROUTE.tags,
    summary: "The workspace's events live, as Server-Sent Events",
    description:
      "REST's `subscription { events }`: the feed's filters in the query string, validated as GET /v1/events's. Each event is one message: `id:` its cursor, `data:` the event " +
      '(the Event schema, as GET /v1/events shows it). `Last-Event-ID` (sent by EventSource when it reconnects) or `after` replays the stored events after that one first, then goes live, ' +
      'none missed or repeated; the header wins over `after`. A comment (`: heartbeat`) every EVENTS_HEARTBEAT_MS (default 15 s) keeps proxies from closing it. Free to open; one credit per event ' +
      'delivered, charged before it is sent: when the workspace can no longer pay, an `event: error` message carries the error envelope (insufficient_credits) and the stream closes. ' +
      'Before the stream starts, a refusal is the error envelope with its status.',
    parameters: [
      ...((base.parameters as Schema[] | undefined) ?? []),
      requestHeader('Last-Event-ID', 'The `id:` of the last event received: the stream resumes after it (wins over `after`).'),
    ],
    responses: {
      200: {
        description: 'The stream: `retry: 3000` and `: connected` at once, then `id: <cursor>` / `data: <Event JSON>` messages, heartbeats, and `event: error` before an end it did not choose.',
        headers: { 'X-Request-Id': HEADERS['X-Request-Id'] },
        content: { 'text/event-stream': { schema: { type: 'string' }, example: 'retry: 3000\n: connected\n\nid: <cursor>\ndata: {"id":"evt_…","type":"ad.created",…}\n\n' } },
      },
      ...(baseResponses['400'] ? { 400: baseResponses['400'] } : {}),
      404: ownError("A brandtrackerId that is not one of this workspace's brandtrackers (not_found), as on GET /v1/events.", 'not_found', 'Brandtracker "5a0e0000-0000-4000-8000-000000000001" was not found.'),
      ...sharedErrors([401, 402, 403, 429, 500, 503]),
    },
  };
}

/** The OpenAPI 3.1 document of the routes (deterministic: the same schema and table give the same text). */
export function openApiDocument(schema: GraphQLSchema, routes: readonly RestRoute[]): Schema {
  const builder = new Builder(schema);
  const paths: Record<string, Record<string, unknown>> = {};
  const ids = new Set<string>();
  for (const route of routes) {
    const path = openApiPath(route);
    const field = fieldOf(schema, route);
    let id = field.name;
    for (let n = 2; ids.has(id); n++) id = `${field.name}_${n}`;
    ids.add(id);
    (paths[path] ??= {})[route.method.toLowerCase()] = operation(builder, route, field, id);
  }
  for (const id of ['exportFile', 'eventStream']) if (ids.has(id)) throw new Error(`openApiDocument: a route's operationId is ${id}, which the routes beside the table use`);
  paths[openApiPath(EXPORT_FILE_ROUTE)] = { get: exportFileOperation(builder, schema) };
  paths[openApiPath(EVENT_STREAM_ROUTE)] = { get: eventStreamOperation(builder, schema) };
  paths[`${BASE_PATH}/ready`] = {
    get: {
      operationId: 'ready',
      tags: ['System'],
      summary: 'Readiness probe: the database (and Redis when configured) answer; the read replicas\' state.',
      description:
        'Open. 200 when every dependency answers, 503 otherwise or while the server shuts down. GET /v1/health is the liveness answer, which touches nothing. ' +
        '`replicas` lists the read replicas (DATABASE_REPLICA_URLS) as the lag sampler last saw them, named host:port/database; empty when there are none. ' +
        'A replica that is unreachable or further behind than REPLICA_MAX_LAG_MS is skipped (its reads run on the others or the primary) and leaves the answer 200.',
      security: [],
      responses: {
        200: { description: 'Ready.', content: { 'application/json': { schema: { $ref: '#/components/schemas/Readiness' } } } },
        503: { description: 'A dependency does not answer, or the server is stopping.', content: { 'application/json': { schema: { $ref: '#/components/schemas/Readiness' } } } },
      },
    },
  };
  const check = { type: 'object', required: ['status', 'latencyMs'], properties: { status: { type: 'string', enum: ['up', 'down'] }, latencyMs: { type: 'integer' }, error: { type: 'string' } } };
  const replica = {
    type: 'object',
    required: ['name', 'reachable', 'lagMs', 'maxLagMs', 'lagging', 'inRotation', 'reason'],
    properties: {
      name: { type: 'string', description: 'host:port/database (never the URL\'s credentials).' },
      reachable: { type: 'boolean', description: 'It answered its last sample, and no statement has found it gone since.' },
      lagMs: { anyOf: [{ type: 'integer' }, { type: 'null' }], description: 'Milliseconds behind the primary at the last sample; null before the first one, while it does not answer, or when it is not a standby.' },
      maxLagMs: { type: 'integer', description: 'REPLICA_MAX_LAG_MS.' },
      lagging: { type: 'boolean', description: 'Further behind than maxLagMs: skipped until it catches up.' },
      inRotation: { type: 'boolean', description: 'It takes market reads now.' },
      reason: { anyOf: [{ type: 'string' }, { type: 'null' }], description: 'Why it is out of rotation (not answering, behind, not a standby), or null.' },
    },
  };
  builder.components.Readiness = {
    type: 'object',
    required: ['requestId', 'status', 'checks', 'replicas'],
    properties: {
      requestId: { type: 'string' },
      status: { type: 'string', enum: ['ready', 'unavailable', 'stopping'] },
      checks: { type: 'object', properties: { database: check, redis: check } },
      replicas: { type: 'array', items: replica, description: 'The read replicas; empty when there are none (the embedded database has none).' },
    },
  };
  return {
    openapi: '3.1.0',
    info: {
      title: 'Market Intelligence API',
      version: 'v1',
      description: 'REST surface generated from the GraphQL schema (the same resolvers serve /graphql). Send `Authorization: Bearer <API key>`. Every answer carries `requestId`; every failure is `{ error: { code, message, requestId, details? } }`.',
    },
    jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
    servers: [{ url: '/', description: 'This server (paths include /v1).' }],
    security: [{ bearer: [] }],
    paths,
    components: components(builder),
  };
}
