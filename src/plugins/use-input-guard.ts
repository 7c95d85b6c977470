import { Kind, type ArgumentNode, type DocumentNode, type SelectionSetNode, type ValueNode } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { validationError, type ArgumentViolation } from '../errors.js';
import { currentRequest } from './use-request-state.js';

// Rules every string a client sends must pass before it goes near the database, on both surfaces and for every
// present and future argument: PostgreSQL's text cannot hold the NUL character (U+0000), so a string with one fails
// its statement (SQLSTATE 22021, 22P05 in jsonb), and with it every request whose lookup shared that statement.
// REST applies the rule while reading parameters (rest/params.ts); this plugin applies it to /graphql documents.

/** Why a value cannot be stored or compared as text, or null: checks strings, and strings inside lists and objects. */
export function textProblem(value: unknown): string | null {
  if (typeof value === 'string') return value.includes('\0') ? 'must not contain the NUL character (U+0000)' : null;
  if (value === null || typeof value !== 'object') return null;
  if (Array.isArray(value)) {
    for (const item of value) {
      const problem = textProblem(item);
      if (problem) return problem;
    }
    return null;
  }
  for (const [key, item] of Object.entries(value)) {
    const problem = textProblem(key) ?? textProblem(item);
    if (problem) return problem;
  }
  return null;
}

/** The value an argument's literal stands for, with variables put in (only to be checked, never executed). */
function valueOf(node: ValueNode, variables: Record<string, unknown>): unknown {
  switch (node.kind) {
    case Kind.VARIABLE:
      return variables[node.name.value];
    case Kind.STRING:
    case Kind.ENUM:
      return node.value;
    case Kind.LIST:
      return node.values.map((item) => valueOf(item, variables));
    case Kind.OBJECT:
      return Object.fromEntries(node.fields.map((field) => [field.name.value, valueOf(field.value, variables)]));
    default:
      return null;
  }
}

/** Every argument of the document whose value breaks the text rule, named by argument. */
export function documentViolations(document: DocumentNode, variables: Record<string, unknown>): ArgumentViolation[] {
  const violations: ArgumentViolation[] = [];
  const seen = new Set<ArgumentNode>();
  const check = (args: readonly ArgumentNode[] | undefined) => {
    for (const arg of args ?? []) {
      if (seen.has(arg)) continue;
      seen.add(arg);
      const problem = textProblem(valueOf(arg.value, variables));
      if (problem) violations.push({ argument: arg.name.value, expected: [`${arg.name.value} ${problem}`] });
    }
  };
  const visit = (selectionSet: SelectionSetNode | undefined) => {
    for (const selection of selectionSet?.selections ?? []) {
      check(selection.directives?.flatMap((directive) => directive.arguments ?? []));
      if (selection.kind === Kind.FIELD) check(selection.arguments);
      if (selection.kind !== Kind.FRAGMENT_SPREAD) visit(selection.selectionSet);
    }
  };
  for (const definition of document.definitions) {
    if (definition.kind === Kind.OPERATION_DEFINITION || definition.kind === Kind.FRAGMENT_DEFINITION) visit(definition.selectionSet);
  }
  return violations;
}

/**
 * Refuses a /graphql operation with a string the database cannot take (400 validation_error naming the argument)
 * before any resolver runs. REST requests were checked while their parameters were read.
 */
export function useInputGuard(): Plugin {
  return {
    onExecute({ args, setResultAndStopExecution }) {
      if (currentRequest()?.rest) return;
      const violations = documentViolations(args.document, (args.variableValues ?? {}) as Record<string, unknown>);
      if (violations.length) setResultAndStopExecution({ errors: [validationError(violations)] });
    },
  };
}
