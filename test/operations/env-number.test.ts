import { describe, expect, it } from 'vitest';
import { envNumber } from '../../src/config.js';
import { exportSettings } from '../../src/schema/exports/service.js';
import { webhookSettings } from '../../src/schema/webhooks/service.js';

// A domain's own number settings (EVENTS_*, EXPORT_*, WEBHOOK_*, SYNC_LEASE_MS, …) are read by one rule: unset or
// empty is the default; anything else must fit, or the process stops naming the variable, the rule and the value.
describe('envNumber', () => {
  it('gives the default for an unset or empty variable and the value when it fits', () => {
    expect(envNumber('N', 7, { min: 1 }, {})).toBe(7);
    expect(envNumber('N', 7, { min: 1 }, { N: '' })).toBe(7);
    expect(envNumber('N', 7, { min: 1, max: 10 }, { N: '10' })).toBe(10);
    expect(envNumber('N', 7, { whole: false, min: 0 }, { N: '0.25' })).toBe(0.25);
  });

  it('refuses what does not fit, saying what it must be', () => {
    expect(() => envNumber('N', 7, { min: 1 }, { N: 'abc' })).toThrow('N must be a whole number of at least 1, got "abc"');
    expect(() => envNumber('N', 7, { min: 1 }, { N: '   ' })).toThrow('got "   "');
    expect(() => envNumber('N', 7, { min: 1 }, { N: '2.5' })).toThrow('N must be a whole number');
    expect(() => envNumber('N', 7, { min: 0, max: 60 }, { N: '61' })).toThrow('N must be a whole number from 0 to 60, got "61"');
    expect(() => envNumber('N', 7, { max: 60, unit: 'seconds' }, { N: '1e3' })).toThrow('N must be a whole number of seconds of at most 60, got "1e3"');
    expect(() => envNumber('N', 7, {}, { N: '9007199254740993' })).toThrow('N must be a whole number');
    expect(() => envNumber('N', 7, { whole: false }, { N: 'Infinity' })).toThrow('N must be a number, got "Infinity"');
  });

  it('is the rule of the settings that use it', () => {
    expect(() => webhookSettings({}, { WEBHOOK_TIMEOUT_MS: '0' })).toThrow('WEBHOOK_TIMEOUT_MS must be a whole number of at least 1, got "0"');
    process.env.EXPORT_CHUNK_ROWS = '10001';
    try {
      expect(() => exportSettings()).toThrow('EXPORT_CHUNK_ROWS must be a whole number from 1 to 10000, got "10001"');
      process.env.EXPORT_CHUNK_ROWS = '12.5';
      expect(() => exportSettings()).toThrow('EXPORT_CHUNK_ROWS must be a whole number');
    } finally {
      delete process.env.EXPORT_CHUNK_ROWS;
    }
  });
});
