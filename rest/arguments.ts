import {
  getNamedType, GraphQLBoolean, GraphQLFloat, GraphQLID, GraphQLInt, GraphQLString, isEnumType, isInputObjectType,
  isListType, isNonNullType, isScalarType, type GraphQLArgument, type GraphQLInputType,
} from 'graphql';
import { NOT_UTF8, textProblem, undecodableQueryParams } from '../src/plugins/use-input-guard.js';
import { MAX_QUERY_LIST, type Location, type ParamViolation, type RestRoute } from './routes.js';

// HTTP input as typed GraphQL argument values, using the schema's argument types only: path segments, query strings
// (repeated or comma-separated lists) and JSON bodies. Type errors are reported per parameter; ranges and other rules
// stay with the resolvers.

const INT = /^[+-]?\d+$/;
const MAX_INT = 2 ** 31 - 1;

type Coerced = { value: unknown } | { error: string };

function coerceScalar(name: string, type: GraphQLInputType, raw: unknown, fromText: boolean): Coerced {
  const named = getNamedType(type);
  // Input objects check their fields one by one (naming the field at fault); every other value is checked whole.
  if (!isInputObjectType(named)) {
    const problem = textProblem(raw);
    if (problem) return { error: `${name} ${problem}` };
  }
  if (isEnumType(named)) {
    const values = named.getValues().map((v) => v.name);
    return typeof raw === 'string' && values.includes(raw)
      ? { value: raw }
      : { error: `${name} must be one of the following values: ${values.join(', ')}` };
  }
  if (named === GraphQLInt) {
    const n = fromText && typeof raw === 'string' && INT.test(raw.trim()) ? Number(raw) : raw;
    return typeof n === 'number' && Number.isInteger(n) && Math.abs(n) <= MAX_INT ? { value: n } : { error: `${name} must be an integer number` };
  }
  if (named === GraphQLFloat) {
    const n = fromText && typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : raw;
    return typeof n === 'number' && Number.isFinite(n) ? { value: n } : { error: `${name} must be a number` };
  }
  if (named === GraphQLBoolean) {
    if (typeof raw === 'boolean') return { value: raw };
    if (fromText && (raw === 'true' || raw === 'false')) return { value: raw === 'true' };
    return { error: `${name} must be a boolean value` };
  }
  if (named === GraphQLString || named === GraphQLID) {
    if (typeof raw === 'string') return { value: raw };
    if (named === GraphQLID && typeof raw === 'number' && Number.isInteger(raw)) return { value: String(raw) };
    return { error: `${name} must be a string` };
  }
  if (isScalarType(named)) {
    try {
      named.parseValue(raw);
      return { value: raw };
    } catch {
      return { error: `${name} must be a valid ${named.name === 'Date' ? 'date (YYYY-MM-DD)' : named.name === 'DateTime' ? 'ISO 8601 date-time' : named.name}` };
    }
  }
  if (isInputObjectType(named)) {
    if (fromText || typeof raw !== 'object' || raw === null || Array.isArray(raw)) return { error: `${name} must be an object` };
    const out: Record<string, unknown> = {};
    for (const field of Object.values(named.getFields())) {
      const value = (raw as Record<string, unknown>)[field.name];
      if (value === undefined || value === null) {
        if (isNonNullType(field.type) && field.defaultValue === undefined) return { error: `${name}.${field.name} should not be empty` };
        continue;
      }
      const coerced = coerce(`${name}.${field.name}`, field.type, value, false);
      if ('error' in coerced) return coerced;
      out[field.name] = coerced.value;
    }
    return { value: out };
  }
  return { error: `${name} is not supported here` };
}

function coerce(name: string, type: GraphQLInputType, raw: unknown, fromText: boolean): Coerced {
  const inner = isNonNullType(type) ? type.ofType : type;
  if (isListType(inner)) {
    const items = fromText
      ? (Array.isArray(raw) ? raw : [raw]).flatMap((item) => String(item).split(',')).map((item) => item.trim()).filter(Boolean)
      : Array.isArray(raw) ? raw : [raw];
    const values: unknown[] = [];
    for (const item of items) {
      const coerced = coerce(name, inner.ofType, item, fromText);
      if ('error' in coerced) return { error: coerced.error.replace(`${name} must`, `each value in ${name} must`) };
      values.push(coerced.value);
    }
    if (fromText && values.length > MAX_QUERY_LIST) return { error: `${name} must contain no more than ${MAX_QUERY_LIST} elements` };
    return { value: values };
  }
  return coerceScalar(name, inner, raw, fromText);
}

export type HttpInput = {
  pathParams: Record<string, string>;
  query: URLSearchParams;
  body: Record<string, unknown> | null;
  /** A multipart body: its fields are text, read like query-string values. */
  bodyIsText?: boolean;
};

/** Typed argument values for the route's field, or the violations found. Unknown parameters are ignored. */
export function argumentsFromHttp(route: RestRoute, args: readonly GraphQLArgument[], input: HttpInput) {
  const values: Record<string, unknown> = {};
  const violations: ParamViolation[] = [];
  // Query-string values whose bytes are not UTF-8 (URLSearchParams made them U+FFFD): refused, as the text rule would.
  const undecodable = undecodableQueryParams();
  for (const arg of args) {
    let raw: unknown;
    // The path; else where the route declares it (argsIn); else GET's query string, a DELETE's body when it has the
    // argument and its query string otherwise, the body of a POST or PATCH.
    const location: Location = arg.name in input.pathParams
      ? 'path'
      : route.argsIn?.[arg.name] ?? (route.method === 'GET' || (route.method === 'DELETE' && (input.body?.[arg.name] ?? null) === null) ? 'query-string' : 'body');
    if (location === 'path') {
      raw = input.pathParams[arg.name];
    } else if (location === 'query-string') {
      if (undecodable.has(arg.name)) {
        violations.push({ argument: arg.name, location, expected: [`${arg.name} ${NOT_UTF8}`] });
        continue;
      }
      const all = input.query.getAll(arg.name).filter((value) => value !== '');
      raw = all.length === 0 ? undefined : isListType(isNonNullType(arg.type) ? arg.type.ofType : arg.type) ? all : all[all.length - 1];
    } else {
      raw = input.body?.[arg.name] ?? undefined;
      if (input.body?.[arg.name] === null && route.nullArgs?.includes(arg.name) && !isNonNullType(arg.type)) {
        values[arg.name] = null;
        continue;
      }
    }
    if (raw === undefined || raw === null) {
      if (isNonNullType(arg.type) && arg.defaultValue === undefined) {
        violations.push({ argument: arg.name, location, expected: [`${arg.name} should not be empty`] });
      }
      continue;
    }
    const coerced = coerce(arg.name, arg.type, raw, location !== 'body' || input.bodyIsText === true);
    if ('error' in coerced) violations.push({ argument: arg.name, location, expected: [coerced.error] });
    else values[arg.name] = coerced.value;
  }
  return { values, violations };
}
