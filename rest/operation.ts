import { buildOperationNodeForField } from '@graphql-tools/utils';
import { Kind, OperationTypeNode, type DocumentNode, type GraphQLSchema } from 'graphql';
import { createSofa } from 'sofa-api';
import type { RestRoute } from './routes.js';

/** The document a route runs, the name of its operation, and the root field whose value is the route's answer. */
export type RouteOperation = { document: DocumentNode; operationName: string | undefined; field: string };

/**
 * Each route's operation as SOFA writes it (sofa-api's reading of the schema: its models, its depth): the route's root
 * field with its arguments as variables and every field of its result. Built once per route, on its first call, and
 * kept: one document per route, so graphql-jit compiles each once (src/plugins/use-compiled-execution.ts). SOFA's own
 * router is not used: it would serve the same document behind a second request, a second routing and a second
 * reading of the arguments already read by rest/arguments.ts.
 */
export function routeOperations(schema: GraphQLSchema): (route: RestRoute) => RouteOperation {
  const { models, ignore, depthLimit } = createSofa({ basePath: '/v1', schema });
  const built = new Map<RestRoute, RouteOperation>();
  return (route) => {
    let operation = built.get(route);
    if (operation) return operation;
    const [type, field] = route.field.split('.') as ['Query' | 'Mutation', string];
    const kind = type === 'Query' ? OperationTypeNode.QUERY : OperationTypeNode.MUTATION;
    const node = buildOperationNodeForField({ kind, schema, field, models, ignore, circularReferenceDepth: depthLimit });
    operation = { document: { kind: Kind.DOCUMENT, definitions: [node] }, operationName: node.name?.value, field };
    built.set(route, operation);
    return operation;
  };
}
