import type { GraphQLField, GraphQLObjectType } from 'graphql';
import { describe, expect, it } from 'vitest';
import { routes } from '../../rest/routes.js';
import { schema } from '../../src/schema/index.js';

// Deny by default: every root field states who may call it, and only the three system fields are public.

type AuthScopes = Record<string, unknown> | ((...args: unknown[]) => unknown);

const scopesOf = (field: GraphQLField<unknown, unknown>) =>
  (field.extensions?.pothosOptions as { authScopes?: AuthScopes } | undefined)?.authScopes;

function rootFields(): { name: string; field: GraphQLField<unknown, unknown> }[] {
  const roots: [string, GraphQLObjectType | null | undefined][] = [['Query', schema.getQueryType()], ['Mutation', schema.getMutationType()]];
  return roots.flatMap(([kind, type]) => Object.values(type?.getFields() ?? {}).map((field) => ({ name: `${kind}.${field.name}`, field })));
}

describe('root fields', () => {
  it('every Query and Mutation field declares authScopes', () => {
    const fields = rootFields();
    expect(fields.length).toBeGreaterThan(0);
    const undeclared = fields.filter(({ field }) => {
      const scopes = scopesOf(field);
      return scopes === undefined || scopes === null || (typeof scopes === 'object' && Object.keys(scopes).length === 0);
    });
    expect(undeclared.map(({ name }) => name), 'root fields without authScopes').toEqual([]);
  });

  it('names only scopes the builder knows', () => {
    const known = new Set(['public', 'workspace', 'writer', '$any', '$all', '$granted']);
    const unknown = rootFields().flatMap(({ name, field }) => {
      const scopes = scopesOf(field);
      return scopes && typeof scopes === 'object' ? Object.keys(scopes).filter((scope) => !known.has(scope)).map((scope) => `${name}: ${scope}`) : [];
    });
    expect(unknown).toEqual([]);
  });

  it('the public fields are exactly apiInfo, health and systemFreshness', () => {
    const publicFields = rootFields()
      .filter(({ field }) => {
        const scopes = scopesOf(field);
        return typeof scopes === 'object' && scopes !== null && (scopes as Record<string, unknown>).public === true;
      })
      .map(({ name }) => name)
      .sort();
    expect(publicFields).toEqual(['Query.apiInfo', 'Query.health', 'Query.systemFreshness']);
  });

  it('every mutation needs a writer', () => {
    const mutations = Object.values(schema.getMutationType()?.getFields() ?? {});
    expect(mutations.filter((field) => (scopesOf(field) as Record<string, unknown>)?.writer !== true).map((field) => field.name)).toEqual([]);
  });
});

describe('rest/routes.ts', () => {
  it('every route names an existing field, and its path parameters are arguments of that field', () => {
    const problems: string[] = [];
    for (const route of routes) {
      const [kind, name] = route.field.split('.');
      const type = kind === 'Query' ? schema.getQueryType() : kind === 'Mutation' ? schema.getMutationType() : null;
      const field = type?.getFields()[name];
      if (!field) {
        problems.push(`${route.method} ${route.path}: no field ${route.field}`);
        continue;
      }
      for (const param of route.path.match(/:[A-Za-z]+/g) ?? []) {
        if (!field.args.some((arg) => arg.name === param.slice(1))) problems.push(`${route.method} ${route.path}: ${route.field} has no argument ${param.slice(1)}`);
      }
      if (kind === 'Mutation' && route.method === 'GET') problems.push(`${route.method} ${route.path}: a mutation behind GET`);
    }
    expect(problems).toEqual([]);
  });

  it('no two routes share a method and path', () => {
    const keys = routes.map((route) => `${route.method} ${route.path}`);
    expect(keys.filter((key, index) => keys.indexOf(key) !== index)).toEqual([]);
  });

  it('the open routes are exactly the public fields', () => {
    const publicRoutes = routes.filter((route) => {
      const [kind, name] = route.field.split('.');
      const field = (kind === 'Query' ? schema.getQueryType() : schema.getMutationType())!.getFields()[name];
      return (scopesOf(field) as Record<string, unknown>)?.public === true;
    });
    expect(publicRoutes.map((route) => `${route.method} ${route.path}`).sort()).toEqual(['GET /', 'GET /health', 'GET /system/freshness']);
  });
});
