import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from '../../src/db/failures.js';

describe('isDatabaseUnavailable: which failures answer 503 service_unavailable instead of 500', () => {
  it('a transaction that could not start in its time (P2028, a burst of writes queued for the pool) is retryable', () => {
    const error = Object.assign(new Error('Transaction API error: Unable to start a transaction in the given time.'), { code: 'P2028' });
    expect(isDatabaseUnavailable(error)).toBe(true);
    expect(isDatabaseUnavailable({ originalError: error })).toBe(true);
  });

  it('a pool timeout, a closed connection and a terminated backend are retryable', () => {
    expect(isDatabaseUnavailable({ code: 'P2024' })).toBe(true);
    expect(isDatabaseUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isDatabaseUnavailable({ meta: { driverAdapterError: { cause: { originalCode: '57P01' } } } })).toBe(true);
  });

  it('a missing record, a unique violation and a plain bug are not', () => {
    expect(isDatabaseUnavailable({ code: 'P2025' })).toBe(false);
    expect(isDatabaseUnavailable({ code: 'P2002' })).toBe(false);
    expect(isDatabaseUnavailable(new TypeError('x is undefined'))).toBe(false);
  });
});
