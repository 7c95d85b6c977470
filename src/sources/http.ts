import { parseJson } from '../data/import/json.js';

// HTTP for the source connectors: one request at a time per caller, a deadline per request, and a single loop
// that waits and retries. Each connector tells the loop what an answer means (`Verdict`): the page, a wait (a
// throttle: wait as long as the source says, not counted as a failure), a retry (a 5xx, a cut body, a dropped
// connection: exponential backoff with full jitter, a bounded number of times), or a stop. Secrets (tokens,
// client secrets) are cut out of every message this module builds, so no error or log line carries one.

/** Why a run stops: `auth` (a credential the source refuses), `request` (the query is wrong for the source),
 *  `unavailable` (retries used up), `protocol` (answers that are not the source's format). */
export type SourceErrorKind = 'auth' | 'request' | 'unavailable' | 'protocol';

export class SourceError extends Error {
  constructor(
    readonly kind: SourceErrorKind,
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

export type Answer = { status: number; headers: Headers; text: string; url: string };

/** What an answer means; `body` is the parsed JSON, or `undefined` when the text is not JSON (a cut body). */
export type Verdict<T> =
  | { ok: T }
  | { wait: number | null; reason: string }
  | { retry: string }
  | { stop: SourceError };

export type Wait = { reason: string; ms: number };

export type HttpOptions = {
  /** Values never shown in a message (a token, a client secret). */
  secrets?: () => string[];
  /** Retries of a failing request (a 5xx, a cut body, a network error) before the run stops. */
  retries?: number;
  /** The first backoff; each retry doubles it (with full jitter) up to `maxDelayMs`. */
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** The longest single wait a throttle may ask for, and the most waits in a row before the run stops. */
  maxWaitMs?: number;
  maxWaits?: number;
  timeoutMs?: number;
  onWait?(wait: Wait): void;
  signal?: AbortSignal;
};

const DEFAULTS = { retries: 5, baseDelayMs: 500, maxDelayMs: 60_000, maxWaitMs: 15 * 60_000, maxWaits: 50, timeoutMs: 60_000 };

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason as Error);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason as Error);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Exponential backoff with full jitter: a random time up to base·2^attempt, capped. */
export function backoff(attempt: number, baseMs: number, maxMs: number): number {
  return Math.round(Math.random() * Math.min(maxMs, baseMs * 2 ** attempt));
}

/** JSON with 64-bit ids kept exact, or `undefined` for a body that is not JSON. */
export function readJson(text: string): unknown {
  try {
    return parseJson(text);
  } catch {
    return undefined;
  }
}

export class SourceHttp {
  private readonly options: typeof DEFAULTS & HttpOptions;

  constructor(options: HttpOptions = {}) {
    this.options = { ...DEFAULTS, ...options };
  }

  /** `text` with every secret and every credential-looking query parameter cut out. */
  redact(text: string): string {
    let out = text.replace(/([?&](?:access_token|client_secret|token)=)[^&\s"']*/gi, '$1***');
    for (const secret of this.options.secrets?.() ?? []) if (secret.length >= 4) out = out.split(secret).join('***');
    return out;
  }

  /** `url` for a message: its credentials cut out. */
  show(url: string): string {
    return this.redact(url);
  }

  /** Waits before the next request (a source that reports its quota nearly used), reported like any wait. */
  async pause(ms: number, reason: string): Promise<void> {
    if (ms <= 0) return;
    const wait = Math.min(ms, this.options.maxWaitMs);
    this.options.onWait?.({ reason: this.redact(reason), ms: wait });
    await sleep(wait, this.options.signal);
  }

  /**
   * Sends `request()` until `judge` accepts an answer or stops; waits and retries as judged. `request` is called for
   * every attempt and may wait first (a pause a source asks between two requests holds for a retry too).
   */
  async send<T>(
    label: string,
    request: () => { url: string; init?: RequestInit } | Promise<{ url: string; init?: RequestInit }>,
    judge: (answer: Answer, body: unknown) => Verdict<T>,
  ): Promise<T> {
    const o = this.options;
    let failures = 0;
    let waits = 0;
    for (;;) {
      const { url, init } = await request();
      let verdict: Verdict<T>;
      try {
        const signals = [AbortSignal.timeout(o.timeoutMs), ...(o.signal ? [o.signal] : [])];
        const response = await fetch(url, { ...init, signal: AbortSignal.any(signals), redirect: 'follow' });
        const text = await response.text();
        verdict = judge({ status: response.status, headers: response.headers, text, url }, readJson(text));
      } catch (error) {
        if (o.signal?.aborted) throw o.signal.reason;
        if (error instanceof SourceError) throw error;
        const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).name;
        verdict = { retry: `${label}: no answer (${cause})` };
      }
      if ('ok' in verdict) return verdict.ok;
      if ('stop' in verdict) {
        verdict.stop.message = this.redact(verdict.stop.message);
        throw verdict.stop;
      }
      if ('wait' in verdict) {
        waits++;
        if (waits > o.maxWaits) throw new SourceError('unavailable', this.redact(`${label}: still throttled after ${o.maxWaits} waits (${verdict.reason})`));
        const ms = Math.min(o.maxWaitMs, verdict.wait ?? backoff(Math.min(waits, 10), o.baseDelayMs * 4, o.maxWaitMs));
        o.onWait?.({ reason: this.redact(verdict.reason), ms });
        await sleep(ms, o.signal);
        continue;
      }
      failures++;
      if (failures > o.retries) throw new SourceError('unavailable', this.redact(`${verdict.retry} (gave up after ${o.retries} retries)`));
      const ms = backoff(failures, o.baseDelayMs, o.maxDelayMs);
      o.onWait?.({ reason: this.redact(verdict.retry), ms });
      await sleep(ms, o.signal);
    }
  }
}
