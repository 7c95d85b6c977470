import pg from 'pg';
import { vi } from 'vitest';
import { NOTICES_APPLICATION } from '../../src/db/notices.js';
import type { TestDatabase } from './database.js';

// The SQL statements a request sends, counted where every statement goes: pg's Client#query (Prisma's included).

const textOf = (call: unknown[]) => String((call[0] as { text?: string } | undefined)?.text ?? call[0]);

/**
 * The API key's own statements: its lookup and its last-use write. Per key, cached (AUTH_CACHE_MS) and written at
 * most every few seconds in production, whenever it falls due: never a route's own work.
 */
const KEY_STATEMENTS = /"credentials"/;

export type StatementRecorder = {
  /** Every statement sent since the recorder started or was last cleared. */
  all(): string[];
  /** The same without the API key's own statements: what the route itself sent. */
  own(): string[];
  clear(): void;
  restore(): void;
};

/** Whether a call came from the connection that listens for the database's notices (src/db/notices.ts): never a request's. */
const fromNotices = (client: unknown) => (client as { connectionParameters?: { application_name?: string } }).connectionParameters?.application_name === NOTICES_APPLICATION;

/** Records the statements every pg client sends, until restore(). */
export function recordStatements(): StatementRecorder {
  const spy = vi.spyOn(pg.Client.prototype, 'query');
  const calls = () => spy.mock.calls.filter((_, i) => !fromNotices(spy.mock.contexts[i])).map(textOf);
  return {
    all: calls,
    own: () => calls().filter((sql) => !KEY_STATEMENTS.test(sql)),
    clear: () => spy.mockClear(),
    restore: () => spy.mockRestore(),
  };
}

/** Runs `call` and returns its result with every statement sent meanwhile. */
export async function withStatements<T>(call: () => Promise<T>): Promise<[T, string[]]> {
  const recorder = recordStatements();
  try {
    const result = await call();
    return [result, recorder.all()];
  } finally {
    recorder.restore();
  }
}

/** Runs `call` and returns its result with the statements the route itself sent meanwhile (the recorder's own()). */
export async function statementsOf<T>(call: () => Promise<T>): Promise<{ res: T; statements: string[] }> {
  const recorder = recordStatements();
  try {
    const res = await call();
    return { res, statements: recorder.own() };
  } finally {
    recorder.restore();
  }
}

/**
 * Resolves once the database's pools have had no statement in flight for a few turns of the event loop: what
 * earlier requests fired and forgot (a key's last-use write) has been answered. Throws after `timeoutMs`.
 */
export async function statementsSettled(db: TestDatabase, timeoutMs = 10_000): Promise<void> {
  const busy = (pool: pg.Pool) => pool.totalCount > pool.idleCount || pool.waitingCount > 0;
  const deadline = Date.now() + timeoutMs;
  for (let quiet = 0; quiet < 3; ) {
    if (Date.now() > deadline) throw new Error(`statements still in flight after ${timeoutMs} ms`);
    await new Promise((resolve) => setImmediate(resolve));
    quiet = busy(db.pool) || busy(db.ledger) ? 0 : quiet + 1;
  }
}
