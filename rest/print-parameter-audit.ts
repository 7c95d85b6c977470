import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { GraphQLArgument, GraphQLField, GraphQLSchema } from 'graphql';
import { projectRoot } from '../src/db/root.js';
import { schema } from '../src/schema/index.js';
import { locationOf } from './routes.js';
import { routes, type RestRoute } from './routes.js';

// The parameter audit: every route of the public reference (rest/reference-parameters.json, names, locations and
// types only) against the arguments the route's GraphQL field declares. A documented parameter is honoured,
// refused (declared with `notSupportedYet`: a validation_error naming it), ignored where the specification says
// so, or MISSING; MISSING ones are allowed only when rest/parameter-gaps.json lists them with a reason.
// `npm run audit:params` writes rest/parameter-audit.md; test/rest/parameter-audit.test.ts fails when it is stale.

export const AUDIT_FILE = path.join(projectRoot, 'rest', 'parameter-audit.md');
export const REFERENCE_FILE = path.join(projectRoot, 'rest', 'reference-parameters.json');
export const GAPS_FILE = path.join(projectRoot, 'rest', 'parameter-gaps.json');

type ReferenceParameter = { name: string; in: 'query' | 'path' | 'body'; type: string; required?: boolean };
type ReferenceRoute = { method: RestRoute['method']; path: string; parameters: ReferenceParameter[] };
export type Gaps = {
  /** `"GET /v1/x": { "param": "reason" }`: documented parameters this server does not declare yet. */
  missing: Record<string, Record<string, string>>;
  /** `"GET /v1/x": "reason"`: reference routes this server does not serve. */
  missingRoutes: Record<string, string>;
  /** `"GET /v1/x": "origin"`: routes of rest/routes.ts that the reference does not document. */
  outsideReference: Record<string, string>;
  /** `"GET /v1/x": { "param": "why" }`: `declared, unused?` suspects a human checked (the resolver does honour them). */
  unusedChecked: Record<string, Record<string, string>>;
  /** `"GET /v1/x": { "param": "how" }`: honoured parameters whose accepted shape differs from the reference's type. */
  shapeDiffers: Record<string, Record<string, string>>;
};

/** Documented parameters the specification itself says are accepted and ignored (market-intelligence-api-v1.md). */
export const IGNORED_BY_SPECIFICATION: Record<string, string[]> = {
  'GET /v1/brandtrackers/{brandtrackerId}/top-ads': ['period', 'snapshotDate'],
  'GET /v1/workspace/top-ads': ['period', 'snapshotDate'],
  'GET /v1/brandtrackers/{brandtrackerId}/demography': ['snapshotDate', 'timePeriod'],
};

/**
 * Documented parameters the reference (not the specification) says are accepted and ignored, on the routes the
 * specification lists as deprecated compatibility surfaces (market-intelligence-api-v1.md: "the brandtracker scaling-ads
 * and ad-rank endpoints"; /workspace/scaling-ads is their workspace form). Decided: they stay accepted, validated as the
 * reference types them, and ignored, as the reference documents; refusing them would break the clients it describes.
 */
export const IGNORED_BY_REFERENCE: Record<string, Record<string, string>> = {
  'GET /v1/brandtrackers/{brandtrackerId}/ad-rank': { snapshotDate: 'legacy route; the ranks are current (echoed as meta.requestedSnapshotDate)' },
  'GET /v1/brandtrackers/{brandtrackerId}/scaling-ads': { snapshotDate: 'legacy route; the ranks are current (echoed as meta.requestedSnapshotDate)' },
  'GET /v1/workspace/scaling-ads': {
    period: 'reference: "period and snapshotDate are deprecated and ignored"; the window is 7 days',
    snapshotDate: 'reference: "period and snapshotDate are deprecated and ignored"; the ranks are current',
  },
};

export type Status = 'honoured' | 'refused' | 'ignored (spec)' | 'ignored (reference)' | 'ignored' | 'declared, unused?' | 'MISSING';
export type AuditRow = { route: string; parameter: string; in: string; type: string; status: Status; note: string };
export type RouteAudit = { route: string; field: string | null; rows: AuditRow[]; serverOnly: string[] };

export const routeKey = (route: Pick<RestRoute, 'method' | 'path'>) =>
  `${route.method} /v1${route.path === '/' ? '' : route.path.replace(/:([A-Za-z]+)/g, '{$1}')}`;

export const readReference = (): ReferenceRoute[] => (JSON.parse(readFileSync(REFERENCE_FILE, 'utf8')) as { routes: ReferenceRoute[] }).routes;
export const readGaps = (): Gaps => JSON.parse(readFileSync(GAPS_FILE, 'utf8')) as Gaps;

function fieldOf(graphql: GraphQLSchema, name: string): GraphQLField<unknown, unknown> {
  const [kind, field] = name.split('.');
  return (kind === 'Query' ? graphql.getQueryType() : graphql.getMutationType())!.getFields()[field!]!;
}

/** Refused: the argument's validation turns down any value with the not-supported message. */
function isRefused(arg: GraphQLArgument): boolean {
  const validate = (arg.extensions?.pothosOptions as { validate?: { safeParse?: (v: unknown) => { success: boolean; error?: { issues: { message: string }[] } } } } | undefined)?.validate;
  const result = validate?.safeParse?.(1);
  return result !== undefined && !result.success && (result.error?.issues ?? []).some((issue) => issue.message.includes('is not supported by this server yet'));
}

/**
 * Declared as accepted and ignored: the argument's deprecation reason or description says "accepted and ignored" or
 * "does not filter", or a sentence of the field's description says so naming it (the documentation both surfaces show).
 */
function isDeclaredIgnored(field: GraphQLField<unknown, unknown>, arg: GraphQLArgument): boolean {
  const says = /\baccepted (and|but) (ignored|do(es)? not filter)\b|\bdo(es)? not filter\b/i;
  if (says.test(arg.deprecationReason ?? '') || says.test(arg.description ?? '')) return true;
  return (field.description ?? '').split(/(?<=\.)\s+/).some((sentence) => says.test(sentence) && new RegExp(`\\b${arg.name}\\b`).test(sentence));
}

// A heuristic for a human to check: an argument whose name appears in its domain's folder (and src/schema/shared)
// only where arguments are declared is probably accepted and ignored.
const schemaDir = path.join(projectRoot, 'src', 'schema');
const sourcesOf = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true, recursive: true }).filter((e) => e.isFile() && e.name.endsWith('.ts')).map((e) => path.join(e.parentPath, e.name));
const allSources = sourcesOf(schemaDir).map((file) => ({ file, text: readFileSync(file, 'utf8') }));
const codeOnly = (text: string) =>
  text.split('\n').filter((line) => !/^\s*(\/\/|\*|\/\*)/.test(line)).join('\n')
    // Prose in strings (descriptions, messages) is not a use; a one-word string may be (a list of argument names).
    .replace(/'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"/g, (literal) => (/\s/.test(literal) ? "''" : literal));

function domainSources(field: string): string[] {
  const roots = allSources.filter(({ text }) => /builder\.(query|mutation)Fields?\(/.test(text));
  const declaring = roots.find(({ text }) => new RegExp(`^  ${field}: t\\.`, 'm').test(text)) ?? roots.find(({ text }) => new RegExp(`^\\s*${field}: t\\.`, 'm').test(text));
  const dirs = [declaring ? path.dirname(declaring.file) : schemaDir, path.join(schemaDir, 'shared')];
  return allSources.filter(({ file }) => dirs.some((dir) => file.startsWith(dir + path.sep))).map(({ text }) => codeOnly(text));
}

function isUsed(sources: string[], name: string): boolean {
  const word = new RegExp(`\\b${name}\\b`);
  const declaration = new RegExp(`\\b${name}\\??\\s*:\\s*t\\.`);
  return sources.some((text) => text.split('\n').some((line) => word.test(line) && !declaration.test(line)));
}

const wantedLocation = { query: 'query-string', path: 'path', body: 'body' } as const;

export function parameterAudit(graphql: GraphQLSchema = schema, reference = readReference(), gaps = readGaps()): RouteAudit[] {
  const served = new Map(routes.map((route) => [routeKey(route), route]));
  return reference.map((documented) => {
    const key = `${documented.method} ${documented.path}`;
    const route = served.get(key);
    if (!route) {
      return { route: key, field: null, serverOnly: [], rows: documented.parameters.map((p) => ({ route: key, parameter: p.name, in: p.in, type: p.type, status: 'MISSING' as const, note: `route not served: ${gaps.missingRoutes[key] ?? 'no reason given'}` })) };
    }
    const field = fieldOf(graphql, route.field);
    const sources = domainSources(field.name);
    const rows = documented.parameters.map((p): AuditRow => {
      const base = { route: key, parameter: p.name, in: p.in, type: p.type };
      const arg = field.args.find((a) => a.name === p.name);
      if (!arg) return { ...base, status: 'MISSING', note: gaps.missing[key]?.[p.name] ?? '' };
      const at = locationOf(route, p.name);
      const lenient = route.method === 'DELETE' && !route.argsIn?.[p.name] && p.in === 'body';
      const note = at === wantedLocation[p.in] || lenient ? '' : `read from the ${at}`;
      if (isRefused(arg)) return { ...base, status: 'refused', note };
      if (isDeclaredIgnored(field, arg)) {
        if (IGNORED_BY_SPECIFICATION[key]?.includes(p.name)) return { ...base, status: 'ignored (spec)', note };
        const decided = IGNORED_BY_REFERENCE[key]?.[p.name];
        if (decided) return { ...base, status: 'ignored (reference)', note: note ? `${note}; ${decided}` : decided };
        return { ...base, status: 'ignored', note: 'accepted and ignored without the specification saying so' };
      }
      const shape = gaps.shapeDiffers[key]?.[p.name];
      if (isUsed(sources, p.name)) return { ...base, status: 'honoured', note: shape ? [note, `shape: ${shape}`].filter(Boolean).join('; ') : note };
      const checked = gaps.unusedChecked[key]?.[p.name];
      return { ...base, status: checked ? 'honoured' : 'declared, unused?', note: checked ? `checked by hand: ${checked}` : note };
    });
    const documentedNames = new Set(documented.parameters.map((p) => p.name));
    return { route: key, field: route.field, rows, serverOnly: field.args.map((a) => a.name).filter((name) => !documentedNames.has(name)) };
  });
}

export function printedParameterAudit(graphql: GraphQLSchema = schema): string {
  const reference = readReference();
  const gaps = readGaps();
  const audits = parameterAudit(graphql, reference, gaps);
  const all = audits.flatMap((a) => a.rows);
  const count = (status: Status) => all.filter((r) => r.status === status).length;
  const documentedKeys = new Set(reference.map((r) => `${r.method} ${r.path}`));
  const outside = routes.map(routeKey).filter((key) => !documentedKeys.has(key));
  const lines = [
    '# Parameter audit (REST /v1)',
    '',
    'Generated by `npm run audit:params` (`rest/print-parameter-audit.ts`) from `rest/reference-parameters.json` (the routes and',
    'parameters of the public reference), the GraphQL schema and `rest/routes.ts`; `test/rest/parameter-audit.test.ts` fails when',
    'this file is stale, when a documented parameter is MISSING without a reason in `rest/parameter-gaps.json`, or when a route',
    'is neither in the reference nor listed there as outside it.',
    '',
    '- **honoured**: the route\'s field declares the argument and its domain\'s code reads it (a `shape:` note says how',
    '  the accepted shape differs from the reference\'s type, from `shapeDiffers` in the gaps file).',
    '- **refused**: declared with `notSupportedYet` (`src/schema/shared/unsupported.ts`): any value is a 400 `validation_error` naming it.',
    '- **ignored (spec)**: declared as accepted and ignored (its deprecation reason or description, or its field\'s description,',
    '  says so), where the specification says so.',
    '- **ignored (reference)**: the same where the reference says so, on the routes the specification lists as deprecated',
    '  compatibility surfaces (scaling-ads, ad-rank): decided to stay accepted, validated and ignored; the note says why.',
    '- **ignored**: the same where neither says so: not allowed (the test fails); honour it or refuse it.',
    '- **declared, unused?**: declared, but its name appears nowhere else in its domain\'s folder or `src/schema/shared`',
    '  (a heuristic): check by hand whether the resolver honours it; once checked, `unusedChecked` in the gaps file says why.',
    '- **MISSING**: documented, neither declared nor refused (an unknown parameter is ignored, so a client sending it gets',
    '  unfiltered rows); the note is the reason from `rest/parameter-gaps.json`.',
    '',
    `Reference routes: ${audits.length} (served: ${audits.filter((a) => a.field).length}); documented parameters: ${all.length}; ` +
      `honoured ${count('honoured')}, refused ${count('refused')}, ignored (spec) ${count('ignored (spec)')}, ` +
      `ignored (reference) ${count('ignored (reference)')}, ignored ${count('ignored')}, ` +
      `declared, unused? ${count('declared, unused?')}, MISSING ${count('MISSING')}.`,
    '',
    '## Routes outside the reference',
    '',
    '| route | origin |',
    '|---|---|',
    ...outside.map((key) => `| \`${key}\` | ${gaps.outsideReference[key] ?? '**not listed**'} |`),
    '',
    '## By route',
  ];
  for (const audit of audits) {
    const missing = audit.rows.filter((r) => r.status === 'MISSING').length;
    lines.push('', `### \`${audit.route}\``, '', audit.field ? `Field \`${audit.field}\`${missing ? `; ${missing} MISSING` : ''}.` : '**Not served.**');
    if (audit.rows.length) {
      lines.push('', '| parameter | in | type | status | note |', '|---|---|---|---|---|');
      for (const row of audit.rows) lines.push(`| \`${row.parameter}\` | ${row.in} | ${row.type.replaceAll('|', '\\|')} | ${row.status} | ${row.note} |`);
    }
    if (audit.serverOnly.length) lines.push('', `Arguments of this server only: ${audit.serverOnly.map((name) => `\`${name}\``).join(', ')}.`);
  }
  return `${lines.join('\n')}\n`;
}

if (process.argv[1] && import.meta.filename === path.resolve(process.argv[1])) {
  writeFileSync(AUDIT_FILE, printedParameterAudit());
  console.log(`wrote ${path.relative(process.cwd(), AUDIT_FILE)}`);
}
