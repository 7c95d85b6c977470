import {
  getNamedType, GraphQLBoolean, GraphQLFloat, GraphQLID, GraphQLInt, GraphQLString, isEnumType, isInputObjectType, isInterfaceType,
  isListType, isNonNullType, isObjectType, isUnionType, type GraphQLArgument, type GraphQLField, type GraphQLInputField,
  type GraphQLNamedType, type GraphQLOutputType, type GraphQLInputType, type GraphQLSchema,
} from 'graphql';
import { z } from 'zod';
import { ERRORS } from '../src/errors.js';
import { priceOf } from '../src/metering/prices.js';
import { isPublicField } from '../src/schema/access.js';
import { locationOf, MAX_QUERY_LIST } from './routes.js';
import type { RestRoute } from './routes.js';

// The OpenAPI 3.1 document of the REST surface (GET /v1/openapi.json, committed as rest/openapi.json), built from
// the route table and the GraphQL schema: each route under its full path, its parameters with the bounds and enum
// values the resolvers validate (their zod schemas, read from the arguments), its JSON body, its answer in its
// envelope, the error envelope for each status it can answer, and the request-id, rate-limit and metering headers.

type Schema = Record<string, unknown>;
const INT32 = { minimum: -(2 ** 31), maximum: 2 ** 31 - 1 };
const BASE_PATH = '/v1';

/** The JSON Schema keywords of the zod schemas the validation plugin attached to an argument or input field. */
function bounds(node: GraphQLArgument | GraphQLInputField): Schema[] {
  const schemas = (node.extensions as Record<string, { schemas?: z.ZodType[] } | undefined>)['@pothos/plugin-validation']?.schemas ?? [];
  return schemas.map((schema) => {
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

function components(builder: Builder): Schema {
  const codes = Object.keys(ERRORS);
  const responses = Object.fromEntries(Object.entries(ERROR_DESCRIPTIONS).map(([status, description]) => [
    `Error${status}`,
    {
      description,
      headers: { 'X-Request-Id': HEADERS['X-Request-Id'], ...(status === '429' || status === '503' ? { 'Retry-After': HEADERS['Retry-After'] } : {}) },
      content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } },
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
                      properties: { field: { type: 'string', examples: ['query-string.limit'] }, location: { type: 'string', enum: ['path', 'query-string', 'body'] }, expected: { type: 'array', items: { type: 'string' } } },
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
  const errors = [400, ...(open ? [] : [401, 403]), ...(metered ? [402] : []), ...(pathNames.length ? [404] : []), ...(open ? [] : [429]), 500, ...(open ? [] : [503])];
  const costNote = !price || price.kind === 'free' ? 'Free.' : price.kind === 'perItem' ? 'One credit when an item is returned.' : `One credit per returned row (holds \`${price.limitArg}\`, default ${price.defaultLimit}, before it runs).`;
  return {
    operationId,
    tags: route.tags,
    summary: field.description ?? `${route.method} ${BASE_PATH}${route.path}`,
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
      ...Object.fromEntries(errors.map((status) => [String(status), { $ref: `#/components/responses/Error${status}` }])),
    },
  };
}

/** The OpenAPI 3.1 document of the routes (deterministic: the same schema and table give the same text). */
export function openApiDocument(schema: GraphQLSchema, routes: readonly RestRoute[]): Schema {
  const builder = new Builder(schema);
  const paths: Record<string, Record<string, unknown>> = {};
  const ids = new Set<string>();
  for (const route of routes) {
    const path = `${BASE_PATH}${route.path === '/' ? '' : route.path.replace(/:([A-Za-z]+)/g, '{$1}')}`;
    const field = fieldOf(schema, route);
    let id = field.name;
    for (let n = 2; ids.has(id); n++) id = `${field.name}_${n}`;
    ids.add(id);
    (paths[path] ??= {})[route.method.toLowerCase()] = operation(builder, route, field, id);
  }
  paths[`${BASE_PATH}/ready`] = {
    get: {
      operationId: 'ready',
      tags: ['System'],
      summary: 'Readiness probe: the database (and Redis when configured) answer.',
      description: 'Open. 200 when every dependency answers, 503 otherwise or while the server shuts down. GET /v1/health is the liveness answer, which touches nothing.',
      security: [],
      responses: {
        200: { description: 'Ready.', content: { 'application/json': { schema: { $ref: '#/components/schemas/Readiness' } } } },
        503: { description: 'A dependency does not answer, or the server is stopping.', content: { 'application/json': { schema: { $ref: '#/components/schemas/Readiness' } } } },
      },
    },
  };
  const check = { type: 'object', required: ['status', 'latencyMs'], properties: { status: { type: 'string', enum: ['up', 'down'] }, latencyMs: { type: 'integer' }, error: { type: 'string' } } };
  builder.components.Readiness = {
    type: 'object',
    required: ['requestId', 'status', 'checks'],
    properties: { requestId: { type: 'string' }, status: { type: 'string', enum: ['ready', 'unavailable', 'stopping'] }, checks: { type: 'object', properties: { database: check, redis: check } } },
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
