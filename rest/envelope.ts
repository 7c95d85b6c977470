import type { RestRoute } from './routes.js';

// The error body is built below the transports (src/errors.ts), so a plugin answering outside /v1 shares it.
export { errorBody, type ErrorBody } from '../src/errors.js';

/** Puts a field's result into the route's envelope, `requestId` first. */
export function envelope(route: RestRoute, requestId: string, result: unknown): Record<string, unknown> {
  let body = route.envelope === 'single' ? { requestId, data: result } : { requestId, ...(result as Record<string, unknown>) };
  for (const path of route.omitNull ?? []) {
    if (route.envelope === 'single') body.data = omitNull(body.data, path.split('.'));
    else body = omitNull(body, path.split('.')) as typeof body;
  }
  return body;
}

/**
 * `target` without the null value at `path` (lists as `key[]`): an object that holds it is replaced by a copy
 * without the key, in its order. Not `delete`, which would turn every such object (each ad of a list) into a
 * dictionary-mode object that JSON.stringify serialises much more slowly.
 */
function omitNull(target: unknown, path: string[]): unknown {
  if (target === null || typeof target !== 'object') return target;
  const object = target as Record<string, unknown>;
  const [head, ...rest] = path;
  const list = head.endsWith('[]');
  const key = list ? head.slice(0, -2) : head;
  const value = object[key];
  if (rest.length === 0) return value === null ? without(object, key) : target;
  if (list && Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = omitNull(value[i], rest);
  } else {
    const next = omitNull(value, rest);
    if (next !== value) object[key] = next;
  }
  return target;
}

function without(object: Record<string, unknown>, omitted: string): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (const key in object) if (key !== omitted) copy[key] = object[key];
  return copy;
}
