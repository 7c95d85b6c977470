import {
  getOperationAST, Kind, type DocumentNode, type FieldNode, type FragmentDefinitionNode, type GraphQLField, type GraphQLObjectType,
  type GraphQLSchema, type SelectionSetNode,
} from 'graphql';
import { getArgumentValues } from 'graphql/execution/values.js';
import type { Plugin } from 'graphql-yoga';
import type { Context } from '../context.js';
import { claimIdempotencyKey } from './use-idempotency.js';
import { currentRequest } from './use-request-state.js';
import { isPublicField } from '../schema/access.js';
import { estimateCost } from '../metering/dry-run.js';
import type { CreditHeaders } from '../metering/credit-headers.js';
import type { RateLimiter } from '../metering/rate-limit.js';

type RootCall = { field: string; definition: GraphQLField<unknown, unknown>; args: Record<string, unknown>; isPublic: boolean };

function rootCalls(schema: GraphQLSchema, document: DocumentNode, operationName: string | null | undefined, variables: Record<string, unknown>): { calls: RootCall[]; write: boolean } {
  const operation = getOperationAST(document, operationName);
  if (!operation) return { calls: [], write: false };
  const type = (operation.operation === 'mutation' ? schema.getMutationType() : schema.getQueryType()) as GraphQLObjectType;
  const fragments = new Map(document.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((d) => [d.name.value, d]));
  const calls: RootCall[] = [];
  const visit = (selections: SelectionSetNode) => {
    for (const selection of selections.selections) {
      if (selection.kind === Kind.FIELD) {
        const definition = type.getFields()[selection.name.value];
        if (!definition) continue; // __typename and friends
        calls.push({ field: `${type.name}.${definition.name}`, definition, args: getArgumentValues(definition, selection as FieldNode, variables), isPublic: isPublicField(definition) });
      } else if (selection.kind === Kind.INLINE_FRAGMENT) visit(selection.selectionSet);
      else {
        const fragment = fragments.get(selection.name.value);
        if (fragment) visit(fragment.selectionSet);
      }
    }
  };
  visit(operation.selectionSet);
  return { calls, write: operation.operation === 'mutation' };
}

/**
 * /graphql's side of metering (REST does the same at its boundary, in rest/plugin.ts): once the caller is
 * authenticated and before any resolver runs, take a rate-limit token; answer a dry run (header
 * `X-Dry-Run: true`) with the credits the operation would reserve; claim a mutation's Idempotency-Key; and report
 * what was charged in `extensions.cost`.
 */
export function useGraphQLLimits(rateLimiter: RateLimiter, creditHeaders?: CreditHeaders): Plugin<Context> {
  return {
    async onExecute({ args, setResultAndStopExecution }) {
      const state = currentRequest();
      const context = args.contextValue as Context;
      if (!state || state.rest) return;
      let calls: RootCall[];
      let write: boolean;
      try {
        ({ calls, write } = rootCalls(args.schema, args.document, args.operationName, (args.variableValues ?? {}) as Record<string, unknown>));
      } catch {
        return; // bad variables: execution reports them
      }
      if (calls.length === 0 || calls.every((call) => call.isPublic)) return;
      let principal;
      try {
        principal = await context.principal();
      } catch (error) {
        // A refused key takes a token from its client address's bucket: past it, the answer is 429. Otherwise the
        // resolvers report the authentication error with its code.
        const answer = await rateLimiter.refusal(error, state.clientAddress);
        if (answer !== error) setResultAndStopExecution({ errors: [answer] } as never);
        return;
      }
      try {
        await rateLimiter.check(principal.credential.id, write ? 'write' : 'read', state.responseHeaders);
      } catch (error) {
        setResultAndStopExecution({ errors: [error as Error] } as never);
        return;
      }
      await creditHeaders?.(principal.workspace.id, state.responseHeaders);
      if (state.dryRun) {
        const cost = await estimateCost(context.prisma, principal.workspace.id, calls.filter((call) => !call.isPublic));
        setResultAndStopExecution({ data: null, extensions: { cost } } as never);
        return;
      }
      // A mutation sent with an Idempotency-Key: its kept answer (given by useIdempotency's result processor) instead of running.
      if (write) {
        try {
          if (await claimIdempotencyKey(state, principal, calls.map((call) => call.definition))) {
            setResultAndStopExecution({ data: null } as never);
            return;
          }
        } catch (error) {
          setResultAndStopExecution({ errors: [error] } as never); // masked: a database that went away is a 503
          return;
        }
      }
      return {
        onExecuteDone({ result, setResult }) {
          const usage = context.meter.summary();
          if (!usage || !('data' in result)) return;
          setResult(Object.assign({}, result, { extensions: Object.assign({}, result.extensions, { cost: { credits: usage.cost, remaining: usage.remaining, fields: usage.fields } }) }));
        },
      };
    },
  };
}
