import { GraphQLError } from 'graphql';
import { isDatabaseUnavailable } from '../src/db/failures.js';
import { ERRORS, isErrorCode, serviceUnavailable, type GraphQLValidationError } from '../src/errors.js';
import { withoutSuggestions } from '../src/plugins/use-graphql-protection.js';
import { errorBody, type ErrorBody } from './envelope.js';
import { locationOf, type ParamViolation } from './routes.js';
import type { RestRoute } from './routes.js';

export type RestError = { status: number; headers: Record<string, string>; body: ErrorBody };

function validationDetails(violations: readonly ParamViolation[]) {
  return {
    validationErrors: violations.map((v) => ({ field: v.argument ? `${v.location}.${v.argument}` : v.location, location: v.location, expected: v.expected })),
  };
}

export function validationFailure(violations: readonly ParamViolation[], requestId: string): RestError {
  const summary = violations.flatMap((v) => v.expected).join('; ');
  return { status: 400, headers: {}, body: errorBody('validation_error', `Invalid request: ${summary}`, requestId, validationDetails(violations)) };
}

export function notFoundFailure(message: string, requestId: string): RestError {
  return { status: 404, headers: {}, body: errorBody('not_found', message, requestId) };
}

/** A known path asked with a method it does not answer: 405 with the methods it does, in `Allow`. */
export function methodNotAllowedFailure(method: string, pathname: string, allowed: readonly string[], requestId: string): RestError {
  const body = errorBody('method_not_allowed', `${pathname} does not answer ${method}: use ${allowed.join(' or ')}.`, requestId, { allowed: [...allowed] });
  return { status: 405, headers: { Allow: allowed.join(', ') }, body };
}

/** The specification's error envelope for errors raised while running a field (or building its context). */
export function restErrorFrom(errors: readonly unknown[], requestId: string, route: RestRoute | undefined): RestError {
  const known = errors.find((e): e is GraphQLError => e instanceof GraphQLError && isErrorCode(e.extensions?.code));
  // A value the schema-driven coercion let through but GraphQL refused: still the client's input, never a 500.
  const variable = errors.map((e) => /^Variable "\$(\w+)" (got invalid value|of required type)/.exec(e instanceof Error ? e.message : '')).find(Boolean);
  if (!known && variable && route) {
    const argument = variable[1];
    const message = withoutSuggestions((errors.find((e) => e instanceof Error && e.message.startsWith(`Variable "$${argument}"`)) as Error).message);
    return validationFailure([{ argument, location: locationOf(route, argument), expected: [message.replace(/^Variable "\$\w+" /, `${argument}: `)] }], requestId);
  }
  if (!known && errors.some((e) => isDatabaseUnavailable(e))) return restErrorFrom([serviceUnavailable()], requestId, route);
  if (!known) {
    return { status: 500, headers: {}, body: errorBody('internal_error', 'An unexpected error occurred. Retry with backoff and report the requestId.', requestId) };
  }
  const code = known.extensions.code as keyof typeof ERRORS;
  const http = known.extensions.http as { headers?: Record<string, string> } | undefined;
  let details = known.extensions.details as Record<string, unknown> | undefined;
  const resolverViolations = details?.validationErrors as GraphQLValidationError[] | undefined;
  if (resolverViolations && route) {
    // Resolver violations name an argument; on REST they name where the client sent it.
    const violations = resolverViolations.map((v) => ({ argument: v.field, location: locationOf(route, v.field), expected: v.expected }));
    details = { ...details, ...validationDetails(violations) };
  }
  return { status: ERRORS[code].status, headers: http?.headers ?? {}, body: errorBody(code, known.message, requestId, details) };
}
