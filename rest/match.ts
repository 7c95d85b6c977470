import type { RestRoute } from './routes.js';

/** `malformed` names the path parameters whose percent-escapes do not decode (`%`, `%FF`): the client's 400, never decoded further. */
export type RouteMatch<R = RestRoute> = { route: R; params: Record<string, string>; malformed: string[] };

/** A method and a path template (`/ads/:adId`): a route of the table, or a path another plugin serves below /v1. */
export type Routed = { method: string; path: string };

type Compiled<R> = { route: R; names: string[] };
/** One path template (parameters unnamed: `/shops/:shopId` and `/shops/:identifier` are one) and its route per method. */
type Template<R> = { pattern: RegExp | null; params: number; methods: Map<string, Compiled<R>> };
/** A route table by path: its literal paths in a map, its parameterised templates fewest parameters first. */
type Table<R> = { literal: Map<string, Template<R>>; patterns: Template<R>[] };

const tables = new WeakMap<readonly Routed[], Table<Routed>>();

const PARAMETER = /\/:([A-Za-z]+)/g;

/**
 * Built once per route table. Templates are matched whatever the method, so a literal segment wins over a parameter
 * across methods too: `GET /ads/query` finds `POST /ads/query` (and answers 405), not `GET /ads/:adId`.
 */
function tableOf<R extends Routed>(routes: readonly R[]): Table<R> {
  const known = tables.get(routes) as Table<R> | undefined;
  if (known) return known;
  const table: Table<R> = { literal: new Map(), patterns: [] };
  const byShape = new Map<string, Template<R>>();
  for (const route of routes) {
    const names = [...route.path.matchAll(PARAMETER)].map((match) => match[1]);
    const shape = route.path.replace(PARAMETER, '/:');
    let template = byShape.get(shape);
    if (!template) {
      const source = shape.replaceAll('/:', '/([^/]+)');
      const literal = names.length === 0 && route.path !== '/';
      template = { pattern: literal ? null : new RegExp(`^${source === '/' ? '/?' : source}$`), params: names.length, methods: new Map() };
      byShape.set(shape, template);
      if (literal) table.literal.set(route.path, template);
      else table.patterns.push(template);
    }
    if (!template.methods.has(route.method)) template.methods.set(route.method, { route, names });
  }
  // Stable: among templates with as many parameters, the table's order decides.
  table.patterns.sort((a, b) => a.params - b.params);
  tables.set(routes, table as Table<Routed>);
  return table;
}

/** The template a path below /v1 names (literal segments win over parameters), and the values of its parameters. */
function templateAt<R extends Routed>(routes: readonly R[], path: string): { template: Template<R>; values: string[] } | null {
  const table = tableOf(routes);
  const literal = table.literal.get(path);
  if (literal) return { template: literal, values: [] };
  for (const template of table.patterns) {
    const match = template.pattern!.exec(path);
    if (match) return { template, values: match.slice(1) };
  }
  return null;
}

/** The route for a method and a path below /v1; null when the path names no template or the template has no such method. */
export function matchRoute<R extends Routed>(routes: readonly R[], method: string, path: string): RouteMatch<R> | null {
  const found = templateAt(routes, path);
  const compiled = found?.template.methods.get(method);
  if (!found || !compiled) return null;
  const params: Record<string, string> = {};
  const malformed: string[] = [];
  compiled.names.forEach((name, index) => {
    const decoded = safeDecode(found.values[index]);
    if (decoded === null) malformed.push(name);
    params[name] = decoded ?? found.values[index];
  });
  return { route: compiled.route, params, malformed };
}

/** The methods the path's template answers (the `Allow` of a 405), in the table's order; empty when no template matches. */
export function allowedMethods(routes: readonly Routed[], path: string): string[] {
  return [...(templateAt(routes, path)?.template.methods.keys() ?? [])];
}

function safeDecode(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}
