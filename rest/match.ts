import type { RestRoute } from './routes.js';

/** `malformed` names the path parameters whose percent-escapes do not decode (`%`, `%FF`): the client's 400, never decoded further. */
export type RouteMatch = { route: RestRoute; params: Record<string, string>; malformed: string[] };

type Compiled = { route: RestRoute; pattern: RegExp; names: string[] };
/** A route table by method: its literal paths in a map, its parameterised routes fewest parameters first. */
type Table = Map<string, { literal: Map<string, RestRoute>; patterns: Compiled[] }>;

const tables = new WeakMap<readonly RestRoute[], Table>();

function compile(route: RestRoute): Compiled {
  const names: string[] = [];
  const source = route.path.replace(/\/:([A-Za-z]+)/g, (_all, name: string) => {
    names.push(name);
    return '/([^/]+)';
  });
  return { route, pattern: new RegExp(`^${source === '/' ? '/?' : source}$`), names };
}

/** Built once per route table: a request finds its route without sorting or filtering the table. */
function tableOf(routes: readonly RestRoute[]): Table {
  let table = tables.get(routes);
  if (table) return table;
  table = new Map();
  for (const route of routes) {
    let entry = table.get(route.method);
    if (!entry) table.set(route.method, (entry = { literal: new Map(), patterns: [] }));
    const compiled = compile(route);
    if (compiled.names.length === 0 && route.path !== '/') {
      if (!entry.literal.has(route.path)) entry.literal.set(route.path, route);
    } else entry.patterns.push(compiled);
  }
  // Stable: among routes with as many parameters, the table's order decides, as before.
  for (const entry of table.values()) entry.patterns.sort((a, b) => a.names.length - b.names.length);
  tables.set(routes, table);
  return table;
}

/** The route for a method and a path below /v1; literal segments win over parameters. */
export function matchRoute(routes: readonly RestRoute[], method: string, path: string): RouteMatch | null {
  const entry = tableOf(routes).get(method);
  if (!entry) return null;
  const literal = entry.literal.get(path);
  if (literal) return { route: literal, params: {}, malformed: [] };
  for (const { route, pattern, names } of entry.patterns) {
    const match = pattern.exec(path);
    if (!match) continue;
    const params: Record<string, string> = {};
    const malformed: string[] = [];
    names.forEach((name, index) => {
      const decoded = safeDecode(match[index + 1]);
      if (decoded === null) malformed.push(name);
      params[name] = decoded ?? match[index + 1];
    });
    return { route, params, malformed };
  }
  return null;
}

function safeDecode(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}
