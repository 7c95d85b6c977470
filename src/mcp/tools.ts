import type { GraphQLField, GraphQLSchema } from 'graphql';
import { priceOf, type Price } from '../metering/prices.js';
import type { RestRoute } from '../../rest/routes.js';
import { objectSchema, type JsonSchema } from './json-schema.js';
import { shapingSchema } from './shape.js';

// One tool per route of rest/routes.ts, generated: its name from the GraphQL field, its description from the
// field's, its input from the field's arguments (and the shaping arguments of src/mcp/shape.ts: maxTokens, fields,
// detail, which the tool reads and the route never sees). A new route is a new tool with no code here.

/** `arguments` are those the route reads (its field's, deprecated ones too): any other is ignored, as by the route. */
export type RouteTool = { name: string; description: string; inputSchema: JsonSchema; route: RestRoute; metered: boolean; arguments: ReadonlySet<string> };

export const snake = (name: string) => name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();

export function costLine(price: Price | undefined): string {
  if (!price || price.kind === 'free') return 'Free.';
  if (price.kind === 'perItem') return 'Costs 1 credit when the item is found.';
  return `Costs 1 credit per returned row (at most \`${price.limitArg}\`, default ${price.defaultLimit}).`;
}

export function fieldOf(schema: GraphQLSchema, route: RestRoute): GraphQLField<unknown, unknown> {
  const [kind, name] = route.field.split('.') as ['Query' | 'Mutation', string];
  const field = (kind === 'Query' ? schema.getQueryType() : schema.getMutationType())?.getFields()[name];
  if (!field) throw new Error(`rest/routes.ts names ${route.field}, which the schema does not have`);
  return field;
}

/** The tools of the route table: reads always, writes only when `mutations` is set. */
export function routeTools(schema: GraphQLSchema, routes: readonly RestRoute[], options: { mutations: boolean }): RouteTool[] {
  return routes
    .filter((route) => options.mutations || route.field.startsWith('Query.'))
    .map((route) => {
      const field = fieldOf(schema, route);
      const price = priceOf(route.field);
      const metered = price !== undefined && price.kind !== 'free';
      const pathParams = [...route.path.matchAll(/:([A-Za-z]+)/g)].map((match) => match[1]);
      const inputSchema = objectSchema(field.args);
      for (const param of pathParams) {
        inputSchema.properties![param] = { ...inputSchema.properties![param], type: 'string' };
        if (!inputSchema.required?.includes(param)) inputSchema.required = [...(inputSchema.required ?? []), param];
      }
      if (metered) inputSchema.properties!.dryRun = { type: 'boolean', description: 'Answer what the call would cost, without running or charging it.' };
      Object.assign(inputSchema.properties!, shapingSchema('full'));
      const description = [field.description ?? '', `${route.method} /v1${route.path.replace(/:([A-Za-z]+)/g, '{$1}')}.`, costLine(price)].filter(Boolean).join(' ');
      const name = snake(route.field.slice(route.field.indexOf('.') + 1));
      return { name, description, inputSchema, route, metered, arguments: new Set(field.args.map((arg) => arg.name)) };
    });
}
