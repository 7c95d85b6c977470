import { Kind, type ArgumentNode, type DocumentNode, type SelectionSetNode, type ValueNode } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { apiError, validationError, type ArgumentViolation } from '../errors.js';
import { currentRequest, type RequestState } from './use-request-state.js';

// Rules every string a client sends must pass before it goes near the database, on both surfaces and for every
// present and future argument: PostgreSQL's text cannot hold the NUL character (U+0000), so a string with one fails
// its statement (SQLSTATE 22021, 22P05 in jsonb), and with it every request whose lookup shared that statement. Nor
// can UTF-8 hold an unpaired surrogate (JSON's "\ud800"): the driver would store U+FFFD in its place, a value the
// client never sent. Bytes that are not UTF-8 are refused where they are decoded (bodies: use-request-body-limit.ts;
// paths: rest/match.ts; query strings: below), since every decoder would also turn them into U+FFFD silently.
// REST applies the rules while reading parameters (rest/arguments.ts, argumentsFromHttp); this plugin applies them to /graphql requests.

const UNPAIRED_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why a value cannot be stored or compared as text, or null: checks strings, and strings inside lists and objects. */
export function textProblem(value: unknown): string | null {
  if (typeof value === 'string') {
    if (value.includes('\0')) return 'must not contain the NUL character (U+0000)';
    return UNPAIRED_SURROGATE.test(value) ? 'must not contain an unpaired surrogate (U+D800 to U+DFFF alone)' : null;
  }
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

/** What a query-string value whose bytes are not UTF-8 is told (as a path segment's is, rest/plugin.ts). */
export const NOT_UTF8 = 'must be valid percent-encoded UTF-8';

/** Percent-decoding as URLSearchParams does it ('+' a space, a '%' without two hex digits kept), or null for bytes that are not UTF-8. */
function decodeStrictly(text: string): string | null {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' ').replace(/%(?![0-9a-f]{2})/gi, '%25'));
  } catch {
    return null;
  }
}

/** The parameters of a query string (or form body) whose values are not percent-encoded UTF-8: URLSearchParams reads their bytes as U+FFFD. */
export function undecodableParams(search: string): string[] {
  // Only the escape of a byte from 0x80 up can start a sequence that is not UTF-8.
  if (!/%[89a-f]/i.test(search)) return [];
  const names: string[] = [];
  for (const pair of search.split('&')) {
    const at = pair.indexOf('=');
    const name = decodeStrictly(at < 0 ? pair : pair.slice(0, at));
    // A name that does not decode is no parameter of any route: ignored, like every unknown parameter.
    if (name !== null && at >= 0 && decodeStrictly(pair.slice(at + 1)) === null) names.push(name);
  }
  return names;
}

/** Each request's undecodable query-string parameters, read from its URL before anything decoded it. */
const undecodableOf = new WeakMap<RequestState, ReadonlySet<string>>();
const NONE: ReadonlySet<string> = new Set();

/** The current request's query-string parameters whose values are not percent-encoded UTF-8. */
export function undecodableQueryParams(): ReadonlySet<string> {
  const state = currentRequest();
  return (state && undecodableOf.get(state)) ?? NONE;
}

/** The parameters a /graphql GET reads from its query string. */
const GRAPHQL_PARAMS = ['query', 'variables', 'operationName', 'extensions'];

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
 * Notes each request's query-string parameters that are not UTF-8 (for rest/plugin.ts, and for a /graphql GET, refused
 * here); refuses a /graphql operation with a string the database cannot take (400 validation_error naming the
 * argument) before any resolver runs. REST requests were checked while their parameters were read.
 */
export function useInputGuard(): Plugin {
  return {
    instrumentation: {
      request({ request }, wrapped) {
        const at = request.url.indexOf('?');
        const names = at < 0 ? [] : undecodableParams(request.url.slice(at + 1));
        const state = currentRequest();
        if (names.length && state) undecodableOf.set(state, new Set(names));
        return wrapped();
      },
    },
    onRequestParse({ request }) {
      if (request.method !== 'GET') return;
      const names = GRAPHQL_PARAMS.filter((name) => undecodableQueryParams().has(name));
      if (!names.length) return;
      const expected = names.map((name) => `${name} ${NOT_UTF8}`);
      throw apiError('validation_error', `Invalid request: ${expected.join('; ')}`, {
        details: { validationErrors: names.map((name, index) => ({ field: `query-string.${name}`, location: 'query-string', expected: [expected[index]] })) },
      });
    },
    onExecute({ args, setResultAndStopExecution }) {
      if (currentRequest()?.rest) return;
      const violations = documentViolations(args.document, (args.variableValues ?? {}) as Record<string, unknown>);
      if (violations.length) setResultAndStopExecution({ errors: [validationError(violations)] });
    },
  };
}
