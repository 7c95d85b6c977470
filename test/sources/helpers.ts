import type pg from 'pg';
import { afterAll, afterEach, beforeEach, vi } from 'vitest';
import type { SyncOptions, SyncRunRow } from '../../src/sources/sync.js';

// What the connector tests share: short backoffs, the loopback fakes closed however a test ends, the source settings
// set per test (and put back after it), table digests, the stored run, and the console output of a run (to show a
// secret never reaches it).

/** Retries and waits short enough for a test; a throttle's asked wait is cut at `maxWaitMs`. */
export const FAST: NonNullable<SyncOptions['http']> = { retries: 3, baseDelayMs: 5, maxDelayMs: 20, maxWaitMs: 200, timeoutMs: 10_000 };

const SOURCE_ENV = [
  'META_GRAPH_URL', 'META_API_VERSION', 'META_ACCESS_TOKEN', 'TIKTOK_API_URL', 'TIKTOK_CLIENT_KEY', 'TIKTOK_CLIENT_SECRET',
  'SHOPIFY_STORE_URL', 'SHOPIFY_DELAY_MS', 'SHOPIFY_DOMAINS', 'SYNC_LEASE_MS', 'SYNC_RUNS_KEEP_DAYS',
];

type Closable = { close(): Promise<void> };

async function closeAll(servers: Closable[]): Promise<void> {
  const results = await Promise.allSettled(servers.splice(0).map((server) => server.close()));
  const failed = results.find((result) => result.status === 'rejected');
  if (failed) throw failed.reason;
}

/**
 * The loopback fakes of a test file, each closed whether its test passed or not: one `track`ed inside a test is
 * closed after that test, one tracked in a `beforeAll` after the file's tests. Call once per file, at its top.
 */
export function fakeServers(): { track<T extends Closable>(started: T | Promise<T>): Promise<T> } {
  const perTest: Closable[] = [];
  const perFile: Closable[] = [];
  let inTest = false;
  beforeEach(() => {
    inTest = true;
  });
  afterEach(async () => {
    inTest = false;
    await closeAll(perTest);
  });
  afterAll(() => closeAll(perFile));
  return {
    async track(started) {
      const server = await started;
      (inTest ? perTest : perFile).push(server);
      return server;
    },
  };
}

/** Sets source settings for the current test; every one of them is put back after it. */
export function sourceEnv(): (vars: Record<string, string | undefined>) => void {
  const saved = new Map<string, string | undefined>(SOURCE_ENV.map((name) => [name, process.env[name]]));
  afterEach(() => {
    for (const [name, value] of saved) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });
  return (vars) => {
    for (const name of SOURCE_ENV) delete process.env[name];
    for (const [name, value] of Object.entries(vars)) if (value !== undefined) process.env[name] = value;
  };
}

export { checksum, checksums } from '../support/checksums.js';

/** The run as stored, every column (the query key included). */
export async function storedRun(pool: pg.Pool, id: string): Promise<Record<string, unknown>> {
  const { rows } = await pool.query(`SELECT * FROM "sync_runs" WHERE "id" = $1`, [id]);
  return rows[0];
}

export const runFigures = (run: SyncRunRow) => ({
  status: run.status, pages: run.pages, fetched: run.fetched, inserted: run.inserted, updated: run.updated, unchanged: run.unchanged, skipped: run.skipped,
});

/** The pages stored and the progress reported by a run, in the order they came: `page 3`, `1/3`. */
export function progressLog(): { events: string[]; options: Pick<SyncOptions, 'onPage' | 'onProgress'> } {
  const events: string[] = [];
  return {
    events,
    options: {
      onPage: (run) => events.push(`page ${run.pages}`),
      onProgress: (done, total) => events.push(`${done}/${total ?? '?'}`),
    },
  };
}

/** Everything written to the console and to stdout/stderr while `work` runs. */
export async function captureOutput<T>(work: () => Promise<T>): Promise<{ result: T | undefined; error: unknown; output: string }> {
  const chunks: string[] = [];
  const keep = (...args: unknown[]) => {
    chunks.push(args.map((arg) => (arg instanceof Error ? `${arg.message}\n${arg.stack}` : typeof arg === 'string' ? arg : JSON.stringify(arg))).join(' '));
  };
  const spies = [
    ...(['log', 'info', 'warn', 'error', 'debug'] as const).map((level) => vi.spyOn(console, level).mockImplementation(keep)),
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => (keep(String(chunk)), true)),
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => (keep(String(chunk)), true)),
  ];
  try {
    return { result: await work(), error: undefined, output: chunks.join('\n') };
  } catch (error) {
    return { result: undefined, error, output: chunks.join('\n') };
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
}
