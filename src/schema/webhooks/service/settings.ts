import { envNumber } from '../../../config.js';

// The delivery settings, from the environment (read when asked, so a test may set them first), each a whole number of
// milliseconds unless named otherwise. README.md (Webhooks) documents them.

export type WebhookSettings = {
  /** WEBHOOK_TIMEOUT_MS: how long an attempt waits for the endpoint's answer (10 s). */
  timeoutMs: number;
  /** WEBHOOK_RETRY_BASE_MS: the first retry's ceiling; each later one doubles it (10 s). */
  retryBaseMs: number;
  /** WEBHOOK_RETRY_MAX_DELAY_MS: the largest ceiling of a retry's delay (6 h). */
  retryMaxDelayMs: number;
  /** WEBHOOK_RETRY_WINDOW_MS: how long a delivery is retried from when it was queued before it is `failed` (24 h). */
  retryWindowMs: number;
  /** WEBHOOK_DISABLE_AFTER_MS: how long an endpoint fails without a success before it is disabled (24 h; also when a delivery is given up)… */
  disableAfterMs: number;
  /** WEBHOOK_DISABLE_FAILURES: …with at least this many failed attempts in a row (10). */
  disableFailures: number;
  /** WEBHOOK_SECRET_OVERLAP_MS: how long the previous secret still signs after a rotation (24 h). */
  secretOverlapMs: number;
  /** WEBHOOK_CONCURRENCY: endpoints delivered to at once by one worker process (4). */
  concurrency: number;
};

const HOUR = 3_600_000;

const DEFAULTS: WebhookSettings = {
  timeoutMs: 10_000,
  retryBaseMs: 10_000,
  retryMaxDelayMs: 6 * HOUR,
  retryWindowMs: 24 * HOUR,
  disableAfterMs: 24 * HOUR,
  disableFailures: 10,
  secretOverlapMs: 24 * HOUR,
  concurrency: 4,
};

const VARIABLES: Record<keyof WebhookSettings, string> = {
  timeoutMs: 'WEBHOOK_TIMEOUT_MS',
  retryBaseMs: 'WEBHOOK_RETRY_BASE_MS',
  retryMaxDelayMs: 'WEBHOOK_RETRY_MAX_DELAY_MS',
  retryWindowMs: 'WEBHOOK_RETRY_WINDOW_MS',
  disableAfterMs: 'WEBHOOK_DISABLE_AFTER_MS',
  disableFailures: 'WEBHOOK_DISABLE_FAILURES',
  secretOverlapMs: 'WEBHOOK_SECRET_OVERLAP_MS',
  concurrency: 'WEBHOOK_CONCURRENCY',
};

/** Durations where 0 means "none": no overlap, retried or disabled at the first failure. */
const MAY_BE_ZERO = new Set<keyof WebhookSettings>(['secretOverlapMs', 'retryWindowMs', 'disableAfterMs']);

/** The settings from `env`, with `overrides` on top (tests shorten the schedule); a malformed value throws, naming it. */
export function webhookSettings(overrides: Partial<WebhookSettings> = {}, env: NodeJS.ProcessEnv = process.env): WebhookSettings {
  const settings = { ...DEFAULTS };
  for (const key of Object.keys(VARIABLES) as (keyof WebhookSettings)[]) {
    settings[key] = envNumber(VARIABLES[key], DEFAULTS[key], { min: MAY_BE_ZERO.has(key) ? 0 : 1 }, env);
  }
  return { ...settings, ...overrides };
}

/**
 * The delay before the next attempt after `attempts` failed ones: exponential backoff with full jitter, a random
 * time between 0 and min(retryMaxDelayMs, retryBaseMs · 2^(attempts − 1)).
 */
export function retryDelayMs(settings: Pick<WebhookSettings, 'retryBaseMs' | 'retryMaxDelayMs'>, attempts: number, random: () => number = Math.random): number {
  const ceiling = Math.min(settings.retryMaxDelayMs, settings.retryBaseMs * 2 ** Math.min(Math.max(attempts - 1, 0), 40));
  return Math.floor(random() * ceiling);
}
