import SchemaBuilder, { BasePlugin, type PothosOutputFieldConfig, type SchemaTypes } from '@pothos/core';
import type { GraphQLFieldResolver } from 'graphql';
import type { Context } from '../context.js';
import { priceOf } from './prices.js';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  export namespace PothosSchemaTypes {
    interface Plugins<Types extends SchemaTypes> {
      metering: MeteringPlugin<Types>;
    }
  }
}

/**
 * Puts the price table into the resolvers: every root field with a price other than free is charged
 * through the request's meter, on GraphQL and REST alike; a root field without a price fails the schema's build. Listed last among the plugins, so access rules
 * and argument validation have passed before anything is held.
 */
export class MeteringPlugin<Types extends SchemaTypes> extends BasePlugin<Types> {
  override wrapResolve(resolver: GraphQLFieldResolver<unknown, Types['Context'], object>, fieldConfig: PothosOutputFieldConfig<Types>) {
    if (fieldConfig.kind !== 'Query' && fieldConfig.kind !== 'Mutation') return resolver;
    const field = `${fieldConfig.parentType}.${fieldConfig.name}`;
    const price = priceOf(field);
    // Fail closed: a root field nobody priced would run free. The schema is not built without its price.
    if (!price) throw new Error(`${field} has no price: add it to PRICES in src/metering/prices.ts (free is a price too).`);
    if (price.kind === 'free') return resolver;
    return (parent: unknown, args: object, context: Types['Context'], info: Parameters<typeof resolver>[3]) =>
      (context as Context).meter.run(field, price, args as Record<string, unknown>, () => resolver(parent, args, context, info));
  }
}

SchemaBuilder.registerPlugin('metering', MeteringPlugin);

const pluginName = 'metering' as const;
export default pluginName;
