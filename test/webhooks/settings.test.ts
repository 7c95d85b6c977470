import { describe, expect, it } from 'vitest';
import { retryDelayMs, webhookSettings } from '../../src/schema/webhooks/service.js';

// The delivery settings and the retry schedule (README: Webhooks): exponential backoff with full jitter, from the
// environment, a malformed value refused with its name.

describe('the retry schedule', () => {
  const defaults = webhookSettings({}, {});

  it('defaults to 10 s doubling up to 6 h, retried for 24 h, disabled after 10 failures and 24 h, 10 s timeout', () => {
    expect(defaults).toEqual({
      timeoutMs: 10_000, retryBaseMs: 10_000, retryMaxDelayMs: 21_600_000, retryWindowMs: 86_400_000,
      disableAfterMs: 86_400_000, disableFailures: 10, secretOverlapMs: 86_400_000, concurrency: 4,
    });
  });

  it('draws each delay below a ceiling that doubles from the base up to the maximum', () => {
    const ceiling = (attempts: number) => retryDelayMs(defaults, attempts, () => 1 - Number.EPSILON) + 1;
    expect([1, 2, 3, 4].map(ceiling)).toEqual([10_000, 20_000, 40_000, 80_000]);
    expect(ceiling(12)).toBe(20_480_000);
    expect([13, 14, 50, 1000].map(ceiling)).toEqual([21_600_000, 21_600_000, 21_600_000, 21_600_000]);
    expect(retryDelayMs(defaults, 5, () => 0)).toBe(0);
    expect(retryDelayMs(defaults, 5, () => 0.5)).toBe(80_000);
  });

  it('retries for at least the retry window: the mean delays of a day of failures add up to about 20 attempts', () => {
    let elapsed = 0;
    let attempts = 0;
    while (elapsed < defaults.retryWindowMs) elapsed += retryDelayMs(defaults, ++attempts, () => 0.5);
    expect(attempts).toBeGreaterThanOrEqual(15);
    expect(attempts).toBeLessThanOrEqual(25);
  });
});

describe('the environment', () => {
  it('reads each WEBHOOK_* variable, overrides on top', () => {
    const env = { WEBHOOK_TIMEOUT_MS: '2500', WEBHOOK_RETRY_WINDOW_MS: '0', WEBHOOK_DISABLE_FAILURES: '3', WEBHOOK_CONCURRENCY: '' };
    expect(webhookSettings({ retryBaseMs: 7 }, env)).toMatchObject({ timeoutMs: 2500, retryWindowMs: 0, disableFailures: 3, concurrency: 4, retryBaseMs: 7 });
  });

  it('refuses a malformed value, naming it', () => {
    expect(() => webhookSettings({}, { WEBHOOK_TIMEOUT_MS: '0' })).toThrow('WEBHOOK_TIMEOUT_MS must be a whole number of at least 1, got "0"');
    expect(() => webhookSettings({}, { WEBHOOK_RETRY_BASE_MS: '1.5' })).toThrow(/WEBHOOK_RETRY_BASE_MS must be a whole number/);
    expect(() => webhookSettings({}, { WEBHOOK_SECRET_OVERLAP_MS: '-1' })).toThrow('WEBHOOK_SECRET_OVERLAP_MS must be a whole number of at least 0, got "-1"');
  });
});
