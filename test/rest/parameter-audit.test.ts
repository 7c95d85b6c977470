import { readFileSync } from 'node:fs';
import { getNamedType, isEnumType, isListType, isNonNullType, type GraphQLArgument, type GraphQLInputType } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AUDIT_FILE, parameterAudit, printedParameterAudit, readGaps, readReference, routeKey, type AuditRow,
} from '../../rest/print-parameter-audit.js';
import { routes } from '../../rest/routes.js';
import { schema } from '../../src/schema/index.js';
import { createTestApp, type TestApp } from '../support/app.js';

// The parameter audit (rest/parameter-audit.md): every documented parameter of the reference is honoured, refused or
// ignored where the specification says so; what is MISSING is listed with a reason in rest/parameter-gaps.json, so
// the list only shrinks on purpose, and a new route or argument cannot slip in unaccounted.

const audits = parameterAudit();
const rows = audits.flatMap((audit) => audit.rows);
const gaps = readGaps();
const reference = readReference();
const named = (list: AuditRow[]) => list.map((row) => `${row.route} ${row.parameter}`);

it('the committed rest/parameter-audit.md is current (run `npm run audit:params` after changing a route or an argument)', () => {
  expect(readFileSync(AUDIT_FILE, 'utf8'), 'rest/parameter-audit.md is stale: run `npm run audit:params`').toBe(printedParameterAudit());
});

describe('documented parameters', () => {
  it('every MISSING one is a known gap with a reason, and every known gap is still MISSING', () => {
    const missing = rows.filter((row) => row.status === 'MISSING');
    expect(named(missing.filter((row) => !gaps.missing[row.route]?.[row.parameter])), 'MISSING without a reason in rest/parameter-gaps.json').toEqual([]);
    const listed = Object.entries(gaps.missing).flatMap(([route, params]) => Object.keys(params).map((param) => `${route} ${param}`));
    expect(listed.filter((gap) => !named(missing).includes(gap)), 'gaps no longer MISSING: remove them from rest/parameter-gaps.json').toEqual([]);
    expect(Object.keys(gaps.missingRoutes).filter((route) => audits.find((a) => a.route === route)?.field), 'served routes listed as missing').toEqual([]);
  });

  it('none is accepted and ignored unless the specification (or, on its legacy routes, the reference) says so', () => {
    expect(named(rows.filter((row) => row.status === 'ignored'))).toEqual([]);
  });

  it('none is a `declared, unused?` suspect left unchecked', () => {
    expect(named(rows.filter((row) => row.status === 'declared, unused?')), 'check by hand, then honour, refuse, or list under unusedChecked').toEqual([]);
    const checked = Object.entries(gaps.unusedChecked).flatMap(([route, params]) => Object.keys(params).map((param) => `${route} ${param}`));
    expect(checked.filter((entry) => !named(rows.filter((row) => row.status === 'honoured')).includes(entry)), 'unusedChecked entries that are not declared').toEqual([]);
    const shaped = Object.entries(gaps.shapeDiffers).flatMap(([route, params]) => Object.keys(params).map((param) => `${route} ${param}`));
    expect(shaped.filter((entry) => !named(rows.filter((row) => row.status === 'honoured')).includes(entry)), 'shapeDiffers entries that are not honoured').toEqual([]);
  });
});

describe('routes', () => {
  it('every reference route is served or listed as missing', () => {
    expect(audits.filter((audit) => !audit.field && !gaps.missingRoutes[audit.route]).map((audit) => audit.route)).toEqual([]);
  });

  it("every route of rest/routes.ts is in the reference or listed as outside it (the specification's or this server's own)", () => {
    const documented = new Set(reference.map((route) => `${route.method} ${route.path}`));
    const outside = routes.map(routeKey).filter((key) => !documented.has(key));
    expect(outside.filter((key) => !gaps.outsideReference[key]), 'routes to list under outsideReference').toEqual([]);
    expect(Object.keys(gaps.outsideReference).filter((key) => !outside.includes(key)), 'outsideReference entries that are gone or documented').toEqual([]);
  });
});

// A refused parameter, sent with a value of its type, is a 400 validation_error naming it.
describe('refused parameters', () => {
  let t: TestApp;
  let key: string;
  beforeAll(async () => {
    t = await createTestApp();
    key = (await t.newKey()).apiKey;
  });
  afterAll(() => t?.close());

  function sample(type: GraphQLInputType): unknown {
    const inner = isNonNullType(type) ? type.ofType : type;
    if (isListType(inner)) return [sample(inner.ofType)];
    const named = getNamedType(inner);
    if (isEnumType(named)) return named.getValues()[0]!.name;
    return ({ Int: 1, Float: 1, Boolean: true, Date: '2026-01-01', DateTime: '2026-01-01T00:00:00Z', JSON: {} } as Record<string, unknown>)[named.name] ?? 'x';
  }

  it('answers each one with a validation_error naming it', async () => {
    const refused = rows.filter((row) => row.status === 'refused');
    for (const row of refused) {
      const route = routes.find((r) => routeKey(r) === row.route)!;
      const [kind, name] = route.field.split('.');
      const field = (kind === 'Query' ? schema.getQueryType() : schema.getMutationType())!.getFields()[name!]!;
      const arg = field.args.find((a) => a.name === row.parameter) as GraphQLArgument;
      const path = route.path.replace(/:([A-Za-z]+)/g, '00000000-0000-4000-8000-000000000000');
      const value = sample(arg.type);
      const res = row.in === 'body'
        ? await t.rest(route.method, path, { key, body: { [row.parameter]: value } })
        : await t.rest(route.method, `${path}?${new URLSearchParams({ [row.parameter]: String(Array.isArray(value) ? value[0] : value) })}`, { key });
      expect(res.status, `${row.route} ${row.parameter}: ${JSON.stringify(res.body)}`).toBe(400);
      expect(res.body.error.code).toBe('validation_error');
      expect(res.body.error.details.validationErrors, `${row.route} ${row.parameter}`).toEqual(
        expect.arrayContaining([expect.objectContaining({ expected: expect.arrayContaining([`${row.parameter} is not supported by this server yet`]) })]),
      );
    }
  });
});
