import { GraphQLError, type DocumentNode, type ExecutionResult, type Source } from 'graphql';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import type { Plugin } from 'graphql-yoga';

type Compiled = CompiledQuery | null;

/**
 * Executes operations with graphql-jit: each operation is compiled once into plain JavaScript (no per-field
 * walk of the schema on every request), then reused for as long as its document lives. REST routes execute
 * one prebuilt document each (SOFA), and yoga's parse cache hands repeated GraphQL queries the same document,
 * so both surfaces hit the cache. An operation graphql-jit cannot compile runs on the standard executor.
 */
export function useCompiledExecution(): Plugin {
  const cache = new WeakMap<DocumentNode, Map<string, Compiled>>();
  const compiledFor = (args: { schema: Parameters<typeof compileQuery>[0]; document: DocumentNode; operationName?: string | null }): Compiled => {
    let byOperation = cache.get(args.document);
    if (!byOperation) cache.set(args.document, (byOperation = new Map()));
    const name = args.operationName ?? '';
    let compiled = byOperation.get(name);
    if (compiled === undefined) {
      const result = compileQuery(args.schema, args.document, args.operationName ?? undefined);
      compiled = isCompiledQuery(result) ? result : null;
      byOperation.set(name, compiled);
    }
    return compiled;
  };
  return {
    onExecute({ args, setExecuteFn }) {
      const compiled = compiledFor(args);
      if (!compiled) return;
      const source = args.document.loc?.source;
      setExecuteFn(async (execution) => {
        const result = (await compiled.query(execution.rootValue, execution.contextValue, execution.variableValues ?? {})) as ExecutionResult;
        return result.errors?.length && source ? { ...result, errors: result.errors.map((error) => withPositions(error, source)) } : result;
      });
    },
  };
}

/**
 * graphql-jit's errors carry `locations` but not the AST nodes (or source positions) yoga derives the
 * locations it sends from: give them the positions in the document's source.
 */
function withPositions(error: GraphQLError, source: Source): GraphQLError {
  if (error.nodes?.length || error.positions?.length || !error.locations?.length) return error;
  const lineStarts = [0];
  for (const match of source.body.matchAll(/\r\n|[\n\r]/g)) lineStarts.push(match.index! + match[0].length);
  const positions = error.locations.map(({ line, column }) => (lineStarts[line - 1] ?? 0) + column - 1);
  return new GraphQLError(error.message, { source, positions, path: error.path, originalError: error.originalError, extensions: error.extensions });
}
