import { locationOf } from '../../rest/params.js';
import type { RestRoute } from '../../rest/routes.js';

// A tool call is the REST call behind it, sent through the server itself: the same authentication, rate
// limit, resolver, price, errors and envelope. The result is that envelope as compact JSON, the metering
// headers' figures beside it in `_meta`.

export type Fetch = (request: Request) => Promise<Response>;
export type ToolResult = { content: { type: 'text'; text: string }[]; isError?: boolean; _meta?: Record<string, unknown> };

/** Longest text a tool answers with: a page of 100 rich rows fits; anything larger is cut, and says so. */
export const MAX_RESULT_CHARS = 200_000;

const METERING_HEADERS = ['x-usage-cost', 'x-credits-used', 'x-credits-remaining', 'x-credits-source'];

/** The request the route would receive for these arguments. */
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
  // Each argument goes where the route reads it (rest/params.ts: the method's default, or the route's argsIn).
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

/** The answer of a route call as a tool result: errors (any non-2xx) are tool errors carrying the error envelope. */
export async function toolResult(response: Response): Promise<ToolResult> {
  const text = bounded(await response.text());
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

export async function callRoute(fetch: Fetch, route: RestRoute, args: Record<string, unknown>, authorization: string | null, origin: string): Promise<ToolResult> {
  return toolResult(await fetch(routeRequest(route, args, authorization, origin)));
}
