import { randomUUID } from 'node:crypto';
import { errorBody } from '../../rest/envelope.js';
import { validationFailure } from '../../rest/errors.js';
import { locationOf, type ParamViolation } from '../../rest/routes.js';
import type { RestRoute } from '../../rest/routes.js';
import { textProblem } from '../plugins/use-input-guard.js';
import { currentRequest } from '../plugins/use-request-state.js';

// A tool call is the REST call behind it, sent through the server itself: the same authentication, rate
// limit, resolver, price, errors and envelope. The result is that envelope as compact JSON, the metering
// headers' figures beside it in `_meta`.

export type Fetch = (request: Request) => Promise<Response>;
export type ToolResult = { content: { type: 'text'; text: string }[]; isError?: boolean; _meta?: Record<string, unknown> };

/** Longest text a tool answers with: a page of 100 rich rows fits; anything larger is cut, and says so. */
export const MAX_RESULT_CHARS = 200_000;

const METERING_HEADERS = ['x-usage-cost', 'x-credits-used', 'x-credits-remaining', 'x-credits-source'];

/** The id of the MCP request a tool runs in (its answers carry it, as the routes' do theirs). */
export const requestIdOf = (): string => currentRequest()?.requestId ?? randomUUID();

const pathParams = (route: RestRoute) => [...route.path.matchAll(/:([A-Za-z]+)/g)].map((match) => match[1]);

/**
 * The arguments a URL cannot carry to the route as they are, named as the route names them: a path argument that is
 * empty, "." or ".." (URL normalisation would drop its segment, and the call would run another route), and text with
 * a NUL or an unpaired surrogate in the path or the query string (which encode it as U+FFFD, or not at all). Arguments
 * outside `known` (those the route does not read) are not looked at; a body carries any text, for the route to judge.
 */
export function urlViolations(route: RestRoute, args: Record<string, unknown>, known?: ReadonlySet<string>): ParamViolation[] {
  const violations: ParamViolation[] = [];
  const inPath = pathParams(route);
  for (const name of inPath) {
    const value = String(args[name] ?? '');
    const problem = value === '' ? 'should not be empty' : value === '.' || value === '..' ? 'must not be "." or ".."' : textProblem(value);
    if (problem) violations.push({ argument: name, location: 'path', expected: [`${name} ${problem}`] });
  }
  for (const [name, value] of Object.entries(args)) {
    if (inPath.includes(name) || (known && !known.has(name)) || locationOf(route, name) !== 'query-string') continue;
    const problem = textProblem(value);
    if (problem) violations.push({ argument: name, location: 'query-string', expected: [`${name} ${problem}`] });
  }
  return violations;
}

/** The request the route would receive for these arguments (urlViolations names those it could not carry). */
export function routeRequest(route: RestRoute, args: Record<string, unknown>, authorization: string | null, origin: string): Request {
  const rest = { ...args };
  const dryRun = rest.dryRun === true;
  delete rest.dryRun;
  const path = route.path.replace(/:([A-Za-z]+)/g, (_all, name: string) => {
    const value = rest[name];
    delete rest[name];
    return encodeURIComponent(String(value ?? ''));
  });
  const url = new URL(`/v1${path === '/' ? '' : path}`, origin);
  if (dryRun) url.searchParams.set('dryRun', 'true');
  const headers: Record<string, string> = {};
  if (authorization) headers.authorization = authorization;
  // Each argument goes where the route reads it (rest/routes.ts locationOf: the method's default, or the route's argsIn).
  const body: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(rest)) {
    if (locationOf(route, name) !== 'query-string') {
      body[name] = value;
      continue;
    }
    if (value === undefined || value === null) continue;
    for (const item of Array.isArray(value) ? value : [value]) url.searchParams.append(name, typeof item === 'object' ? JSON.stringify(item) : String(item));
  }
  if (route.method === 'GET' || (route.method === 'DELETE' && Object.keys(body).length === 0)) return new Request(url, { method: route.method, headers });
  headers['content-type'] = 'application/json';
  return new Request(url, { method: route.method, headers, body: JSON.stringify(body) });
}

/** A tool's text within MAX_RESULT_CHARS: anything larger is cut, and says so. */
export function bounded(text: string): string {
  return text.length > MAX_RESULT_CHARS ? `${text.slice(0, MAX_RESULT_CHARS)}\n[cut at ${MAX_RESULT_CHARS} characters: ask for a smaller limit]` : text;
}

/** The answer of a route call as a tool result (a success's text shaped by `shapeText`): errors (any non-2xx) are tool errors carrying the error envelope. */
export async function toolResult(response: Response, shapeText?: (text: string) => string): Promise<ToolResult> {
  const raw = await response.text();
  const text = bounded(response.status < 400 && shapeText ? shaped(raw, shapeText) : raw);
  const meta: Record<string, unknown> = {};
  for (const name of METERING_HEADERS) {
    const value = response.headers.get(name);
    if (value !== null) meta[name] = /^-?\d+$/.test(value) ? Number(value) : value;
  }
  const result: ToolResult = { content: [{ type: 'text', text }] };
  if (response.status >= 400) result.isError = true;
  if (Object.keys(meta).length) result._meta = meta;
  return result;
}

/** The answer's text shaped (src/mcp/shape.ts), or as it is when it is not JSON. */
function shaped(raw: string, shapeText: (text: string) => string): string {
  try {
    return shapeText(raw);
  } catch {
    return raw;
  }
}

/** A tool error carrying the error envelope, as a route's error is. */
export function errorResult(code: string, message: string, requestId: string, details?: Record<string, unknown>): ToolResult {
  return { content: [{ type: 'text', text: bounded(JSON.stringify(errorBody(code, message, requestId, details))) }], isError: true };
}

/** The route called with these arguments; `known` names the arguments it reads (all, when not given). */
export async function callRoute(
  fetch: Fetch, route: RestRoute, args: Record<string, unknown>, authorization: string | null, origin: string, known?: ReadonlySet<string>, shapeText?: (text: string) => string,
): Promise<ToolResult> {
  const violations = urlViolations(route, args, known);
  if (violations.length) {
    const { error } = validationFailure(violations, requestIdOf()).body;
    return errorResult(error.code, error.message, error.requestId, error.details);
  }
  return toolResult(await fetch(routeRequest(route, args, authorization, origin)), shapeText);
}
