import { textProblem } from '../../plugins/use-input-guard.js';
import type { JsonSchema } from '../json-schema.js';

// A task tool's own arguments: declared once, they give the tool's JSON input schema and its validation (known
// arguments strictly, with a validation_error naming the argument; unknown ones ignored, as on the routes).

export type Param =
  /** Required unless `optional` (then absent or empty means not given). */
  | { type: 'string'; description: string; maxLength: number; optional?: boolean }
  | { type: 'integer'; description: string; minimum: number; maximum: number; default: number }
  /** A list of some of `values` (absent: none). */
  | { type: 'strings'; description: string; values: readonly string[]; maxItems: number };

export type Params = Record<string, Param>;

/** The validated arguments: every declared one present (a default fills an omitted integer), but an optional string. */
export type InputOf<P extends Params> = {
  [K in keyof P]: P[K] extends { type: 'integer' } ? number : P[K] extends { type: 'strings' } ? string[] : P[K] extends { optional: true } ? string | undefined : string;
};

export type Violation = { field: string; location: 'argument'; expected: string[] };

export function paramsSchema(params: Params, metered: boolean): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const [name, param] of Object.entries(params)) {
    if (param.type === 'string') {
      properties[name] = { type: 'string', description: param.description, minLength: 1, maxLength: param.maxLength };
      if (!param.optional) required.push(name);
    } else if (param.type === 'strings') {
      properties[name] = { type: 'array', description: param.description, items: { type: 'string', enum: [...param.values] } };
    } else {
      const { description, minimum, maximum } = param;
      properties[name] = { type: 'integer', description, minimum, maximum, default: param.default };
    }
  }
  if (metered) properties.dryRun = { type: 'boolean', description: 'Answer what the task would cost at most, and the balance, without running or charging it.' };
  return required.length ? { type: 'object', properties, required } : { type: 'object', properties };
}

function check(name: string, param: Param, value: unknown): { value: string | number | string[] | undefined } | { violation: Violation } {
  const violation = (expected: string) => ({ violation: { field: name, location: 'argument' as const, expected: [expected] } });
  if (param.type === 'strings') {
    if (value === undefined || value === null) return { value: [] };
    if (!Array.isArray(value) || value.some((item) => typeof item !== 'string' || !param.values.includes(item))) {
      return violation(`${name} must be a list of: ${param.values.join(', ')}`);
    }
    if (value.length > param.maxItems) return violation(`${name} must contain no more than ${param.maxItems} elements`);
    return { value: value as string[] };
  }
  if (param.type === 'string') {
    if (param.optional && (value === undefined || value === null || value === '')) return { value: undefined };
    if (typeof value !== 'string' || value.trim() === '') return violation(param.optional ? `${name} must be a string` : `${name} is required: a non-empty string`);
    if (value.length > param.maxLength) return violation(`${name} must be at most ${param.maxLength} characters`);
    const problem = textProblem(value);
    if (problem) return violation(`${name} ${problem}`);
    return { value: value.trim() };
  }
  if (value === undefined || value === null) return { value: param.default };
  if (typeof value !== 'number' || !Number.isInteger(value) || value < param.minimum || value > param.maximum) {
    return violation(`${name} must be an integer from ${param.minimum} to ${param.maximum}`);
  }
  return { value };
}

/** The arguments of a call, validated; dryRun must be a boolean when given. */
export function readParams<P extends Params>(params: P, args: Record<string, unknown>): { input: InputOf<P>; dryRun: boolean } | { violations: Violation[] } {
  const input: Record<string, string | number | string[] | undefined> = {};
  const violations: Violation[] = [];
  for (const [name, param] of Object.entries(params)) {
    const read = check(name, param, args[name]);
    if ('violation' in read) violations.push(read.violation);
    else input[name] = read.value;
  }
  if (args.dryRun !== undefined && typeof args.dryRun !== 'boolean') violations.push({ field: 'dryRun', location: 'argument', expected: ['dryRun must be a boolean'] });
  if (violations.length) return { violations };
  return { input: input as InputOf<P>, dryRun: args.dryRun === true };
}
