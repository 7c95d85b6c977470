import type { RestRoute } from './routes.js';

/** Puts a field's result into the route's envelope, `requestId` first. */
export function envelope(route: RestRoute, requestId: string, result: unknown): Record<string, unknown> {
  const body = route.envelope === 'single' ? { requestId, data: result } : { requestId, ...(result as Record<string, unknown>) };
  for (const path of route.omitNull ?? []) omitNull(route.envelope === 'single' ? body.data : body, path.split('.'));
  return body;
}

function omitNull(target: unknown, path: string[]): void {
  if (target === null || typeof target !== 'object') return;
  const [head, ...rest] = path;
  const list = head.endsWith('[]');
  const key = list ? head.slice(0, -2) : head;
  const value = (target as Record<string, unknown>)[key];
  if (rest.length === 0) {
    if (value === null) delete (target as Record<string, unknown>)[key];
    return;
  }
  if (list && Array.isArray(value)) value.forEach((item) => omitNull(item, rest));
  else omitNull(value, rest);
}

export type ErrorBody = { error: { code: string; message: string; requestId: string; details?: Record<string, unknown> } };

export function errorBody(code: string, message: string, requestId: string, details?: Record<string, unknown>): ErrorBody {
  return { error: details ? { code, message, requestId, details } : { code, message, requestId } };
}
