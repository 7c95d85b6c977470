import { GraphQLError } from 'graphql';

/** The specification's error codes: HTTP status and whether a client may retry. One table, both surfaces. */
export const ERRORS = {
  validation_error: { status: 400, retryable: false },
  missing_api_key: { status: 401, retryable: false },
  invalid_api_key: { status: 401, retryable: false },
  credential_not_found: { status: 401, retryable: false },
  credential_revoked: { status: 401, retryable: false },
  credential_expired: { status: 401, retryable: false },
  insufficient_credits: { status: 402, retryable: false },
  workspace_public_api_disabled: { status: 403, retryable: false },
  workspace_public_api_suspended: { status: 403, retryable: false },
  delegated_user_access_revoked: { status: 403, retryable: false },
  forbidden: { status: 403, retryable: false },
  not_found: { status: 404, retryable: false },
  method_not_allowed: { status: 405, retryable: false },
  conflict: { status: 409, retryable: false },
  rate_limited: { status: 429, retryable: true },
  internal_error: { status: 500, retryable: true },
  auth_provider_unavailable: { status: 503, retryable: true },
  /** Not in the specification's table: the database (or another dependency) is unreachable for a moment. Retry after Retry-After. */
  service_unavailable: { status: 503, retryable: true },
} as const;

export type ErrorCode = keyof typeof ERRORS;

/** A validation failure of one argument; the REST layer turns `argument` into `field`/`location`. */
export type ArgumentViolation = { argument: string; expected: string[] };

/** How a violation appears in `extensions.details.validationErrors` on GraphQL. */
export type GraphQLValidationError = { field: string; location: 'argument'; expected: string[] };

export type ApiErrorExtensions = {
  code: ErrorCode;
  http: { status: number; headers?: Record<string, string> };
  details?: Record<string, unknown>;
};

/** A deliberate error: carries the specification's code and HTTP status on GraphQL and REST alike. */
export function apiError(
  code: ErrorCode,
  message: string,
  options: { details?: Record<string, unknown>; headers?: Record<string, string> } = {},
): GraphQLError {
  const extensions: ApiErrorExtensions = { code, http: { status: ERRORS[code].status } };
  if (options.headers) extensions.http.headers = options.headers;
  if (options.details) extensions.details = options.details;
  return new GraphQLError(message, { extensions });
}

export function validationError(violations: ArgumentViolation[]): GraphQLError {
  const summary = violations.flatMap((violation) => violation.expected).join('; ');
  const validationErrors: GraphQLValidationError[] = violations.map((v) => ({ field: v.argument, location: 'argument', expected: v.expected }));
  return apiError('validation_error', `Invalid request: ${summary}`, { details: { validationErrors } });
}

/** The error envelope of REST (and of the routes outside /v1): `{ error: { code, message, requestId, details? } }`. */
export type ErrorBody = { error: { code: string; message: string; requestId: string; details?: Record<string, unknown> } };

export function errorBody(code: string, message: string, requestId: string, details?: Record<string, unknown>): ErrorBody {
  return { error: details ? { code, message, requestId, details } : { code, message, requestId } };
}

export function notFound(what: string): GraphQLError {
  return apiError('not_found', `${what} was not found.`);
}

/** Seconds a client is asked to wait (Retry-After) when the service is briefly unavailable. */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 1;

/** The answer to a request that failed because the database could not be reached or ended its connection. */
export function serviceUnavailable(): GraphQLError {
  return apiError('service_unavailable', 'The service is temporarily unavailable (its database could not be reached). Retry after the Retry-After header.', {
    headers: { 'Retry-After': String(UNAVAILABLE_RETRY_AFTER_SECONDS) },
  });
}

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(ERRORS, value);
}
