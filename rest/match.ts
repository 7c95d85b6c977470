import type { RestRoute } from './routes.js';

/** `malformed` names the path parameters whose percent-escapes do not decode (`%`, `%FF`): the client's 400, never decoded further. */
export type RouteMatch = { route: RestRoute; params: Record<string, string>; malformed: string[] };

const compiled = new WeakMap<RestRoute, { pattern: RegExp; names: string[] }>();

function compile(route: RestRoute) {
  let entry = compiled.get(route);
  if (!entry) {
    const names: string[] = [];
    const source = route.path.replace(/\/:([A-Za-z]+)/g, (_all, name: string) => {
      names.push(name);
      return '/([^/]+)';
    });
    entry = { pattern: new RegExp(`^${source === '/' ? '/?' : source}$`), names };
    compiled.set(route, entry);
  }
  return entry;
}

/** The route for a method and a path below /v1; literal segments win over parameters. */
export function matchRoute(routes: readonly RestRoute[], method: string, path: string): RouteMatch | null {
  const candidates = routes
    .filter((route) => route.method === method)
    .map((route) => ({ route, match: compile(route).pattern.exec(path) }))
    .filter((candidate) => candidate.match !== null)
    .sort((a, b) => compile(a.route).names.length - compile(b.route).names.length);
  const first = candidates[0];
  if (!first) return null;
  const params: Record<string, string> = {};
  const malformed: string[] = [];
  compile(first.route).names.forEach((name, index) => {
    const decoded = safeDecode(first.match![index + 1]);
    if (decoded === null) malformed.push(name);
    params[name] = decoded ?? first.match![index + 1];
  });
  return { route: first.route, params, malformed };
}

function safeDecode(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}
