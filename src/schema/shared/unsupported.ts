import { z } from 'zod';

// A documented argument this server has no data for yet is refused, never accepted and ignored: a client that sends
// it gets a 400 validation_error naming it instead of rows the argument did not filter. Declare the argument (so
// both surfaces know it) with this rule; null counts as not sent.

export const NOT_SUPPORTED_YET = '{name} is not supported by this server yet';

/** The validation rule of a declared but unsupported argument: any value other than null is a validation_error. */
export const notSupportedYet = z.custom<unknown>((value) => value === null || value === undefined, { message: NOT_SUPPORTED_YET });
