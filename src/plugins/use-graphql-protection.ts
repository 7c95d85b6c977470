import { EnvelopArmorPlugin } from '@escape.tech/graphql-armor';
import { GraphQLError, type ValidationContext } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { apiError, isErrorCode } from '../errors.js';

// Limits on what one /graphql document may ask for. They act at parse and validation time, before any
// resolver runs; REST routes never meet them (SOFA builds its documents and skips both phases).
export const GRAPHQL_LIMITS = {
  maxDepth: 10,
  maxAliases: 15,
  maxTokens: 3000,
  maxDirectives: 20,
  maxCost: 10_000,
} as const;

const RULES: [RegExp, string][] = [
  [/depth limit/i, 'maxDepth'],
  [/aliases limit/i, 'maxAliases'],
  [/token limit/i, 'maxTokens'],
  [/directives limit/i, 'maxDirectives'],
  [/cost limit/i, 'costLimit'],
];

/**
 * A message without GraphQL's "Did you mean ...?" (fields, arguments, types, enum values): suggestions would tell a
 * stranger the schema that introspection may not.
 */
export function withoutSuggestions(message: string): string {
  return message.replace(/\s*Did you mean [^?]*\?/g, '');
}

/** A rejected document answers 400 validation_error, naming the limit (or `graphql` for a plain invalid document). */
function withCode(error: GraphQLError): GraphQLError {
  if (isErrorCode(error.extensions?.code)) return error;
  const message = withoutSuggestions(error.message);
  const rule = RULES.find(([pattern]) => pattern.test(message))?.[1] ?? 'graphql';
  const coded = apiError('validation_error', message, { details: { rule } });
  return new GraphQLError(message, { nodes: error.nodes, source: error.source, positions: error.positions, extensions: coded.extensions });
}

export function useGraphQLProtection(): Plugin {
  // Rejections are reported as validation errors (armor would otherwise throw out of the validator).
  const report = { exposeLimits: true, propagateOnRejection: false, onReject: [(context: ValidationContext | null, error: GraphQLError) => context?.reportError(withCode(error))] };
  const armor = EnvelopArmorPlugin({
    maxDepth: { n: GRAPHQL_LIMITS.maxDepth, ...report },
    // Aliases of __typename count too (armor lets them through by default): each is one more field to answer.
    maxAliases: { n: GRAPHQL_LIMITS.maxAliases, allowList: [], ...report },
    maxTokens: { n: GRAPHQL_LIMITS.maxTokens, exposeLimits: true },
    maxDirectives: { n: GRAPHQL_LIMITS.maxDirectives, ...report },
    costLimit: { maxCost: GRAPHQL_LIMITS.maxCost, ...report },
    blockFieldSuggestion: { enabled: true },
  });
  return {
    onPluginInit({ addPlugin }) {
      addPlugin(armor as Plugin);
    },
    onParse() {
      return ({ result, replaceParseResult }) => {
        if (result instanceof GraphQLError) replaceParseResult(withCode(result));
      };
    },
    onValidate() {
      return ({ result, setResult }) => {
        if (result.length) setResult(result.map((error) => (error instanceof GraphQLError ? withCode(error) : error)));
      };
    },
  };
}
