import type { ArgumentViolation } from '../errors.js';

type Issue = {
  readonly message: string;
  readonly path?: ReadonlyArray<PropertyKey | { readonly key: PropertyKey }> | undefined;
  readonly code?: string;
  readonly maximum?: number | bigint;
  readonly minimum?: number | bigint;
  readonly values?: readonly unknown[];
  readonly origin?: string;
};

const keyOf = (segment: PropertyKey | { readonly key: PropertyKey }) =>
  String(typeof segment === 'object' && segment !== null ? segment.key : segment);

/** Readable rules in the house style of the specification: "limit must not be greater than 100". */
function expectation(name: string, issue: Issue): string {
  const sized = issue.origin === 'string' ? ' characters' : issue.origin === 'array' ? ' elements' : '';
  switch (issue.code) {
    case 'too_big':
      return sized ? `${name} must be shorter than or equal to ${issue.maximum}${sized}` : `${name} must not be greater than ${issue.maximum}`;
    case 'too_small':
      return sized ? `${name} must be longer than or equal to ${issue.minimum}${sized}` : `${name} must not be less than ${issue.minimum}`;
    case 'invalid_value':
      return `${name} must be one of the following values: ${(issue.values ?? []).join(', ')}`;
    default:
      return issue.message.includes('{name}') ? issue.message.replaceAll('{name}', name) : `${name}: ${issue.message}`;
  }
}

/** Groups schema issues by top-level argument. */
export function violationsFromIssues(issues: readonly Issue[]): ArgumentViolation[] {
  const byArgument = new Map<string, string[]>();
  for (const issue of issues) {
    const path = (issue.path ?? []).map(keyOf);
    const argument = path[0] ?? 'arguments';
    const name = path.filter((segment) => !/^\d+$/.test(segment)).join('.') || argument;
    const expected = byArgument.get(argument) ?? [];
    const rule = expectation(name, issue);
    // One rule once: zod's int() checks the safe range itself, so a bound of the same number repeats it.
    if (!expected.includes(rule)) byArgument.set(argument, [...expected, rule]);
  }
  return [...byArgument].map(([argument, expected]) => ({ argument, expected }));
}
