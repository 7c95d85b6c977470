import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type pg from 'pg';
import type { MigrationProgress } from './db/migrate.js';
import { exportSettings } from './schema/exports/service.js';
import { webhookSettings } from './schema/webhooks/service.js';
import { defaultLeaseMs } from './sources/index.js';

// What `npm start` says while it starts (src/main.ts): a port it cannot listen on in one line, before the slow part
// of the start; the creation of the embedded database and each migration as it is applied; what to do with a
// database that holds nothing.

/**
 * The one line for a malformed setting the domains read when they first need it (EXPORT_*, WEBHOOK_*, SYNC_LEASE_MS),
 * or null: read here at the start, so a bad value stops it (src/main.ts, src/worker.ts) instead of failing the first
 * export or delivery. (The events' and saved searches' settings are read when their modules load; loadConfig, the rest.)
 */
export function settingsRefusal(): string | null {
  try {
    exportSettings();
    webhookSettings();
    defaultLeaseMs();
    return null;
  } catch (error) {
    return `invalid configuration: ${error instanceof Error ? error.message : String(error)}`;
  }
}

/** The one line for a port the server cannot listen on (`variable` names the setting that chose it). */
export function listenFailure(error: unknown, port: number, host: string, variable: string): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EADDRINUSE') return `port ${port} is in use; set ${variable}=<a free port>, or stop the process that holds it`;
  if (code === 'EACCES') return `port ${port} needs privileges this user does not have; set ${variable}=<a port above 1023>`;
  if (code === 'EADDRNOTAVAIL') return `HOST=${host} is not an address of this machine; set HOST=0.0.0.0 (every interface) or 127.0.0.1`;
  return `cannot listen on ${host}:${port}: ${(error as Error).message}`;
}

/** Listens, or rejects with the listen error (rather than the server's unhandled 'error' event). */
export function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/** Why the server could not listen on `port`, found by listening there for a moment; null when it can (or port 0). */
export async function portRefusal(port: number | undefined, host: string, variable: string): Promise<string | null> {
  if (!port) return null;
  const probe = createServer();
  try {
    await listen(probe, port, host);
    await new Promise((resolve) => probe.close(resolve));
    return null;
  } catch (error) {
    return listenFailure(error, port, host, variable);
  }
}

/** Whether the embedded database of `dataDir` is still to be created (PGlite's initdb: the slowest step of a first start). */
export function embeddedIsNew(dataDir: string): boolean {
  return !existsSync(path.join(dataDir, 'pgdata', 'PG_VERSION'));
}

/** A log line per migration applied, and one before the first with how many there are. */
export function migrationLines(log: (line: string) => void): (progress: MigrationProgress) => void {
  let started = performance.now();
  let previous = started;
  return ({ done, total, name }) => {
    const now = performance.now();
    if (done === 0) {
      started = previous = now;
      log(`applying ${total} migration${total === 1 ? '' : 's'}…`);
      return;
    }
    log(`migration ${done}/${total} applied: ${name} (${((now - previous) / 1000).toFixed(1)} s)`);
    previous = now;
    if (done === total) log(`migrations applied in ${((now - started) / 1000).toFixed(1)} s`);
  };
}

/** What to do next, when the database has no workspace (so no key) or no market data; null when it has both. */
export async function emptyDatabaseHint(pool: pg.Pool): Promise<string | null> {
  const { rows } = await pool.query<{ workspaces: boolean; market: boolean }>(
    'SELECT EXISTS (SELECT 1 FROM "workspaces") AS workspaces, EXISTS (SELECT 1 FROM "ads") OR EXISTS (SELECT 1 FROM "shops") AS market',
  );
  const { workspaces, market } = rows[0];
  const cli = 'npm run --silent cli --';
  const key = `${cli} workspace create --slug S, then key create --workspace S`;
  const data = `${cli} import, sync run or seed`;
  if (!workspaces && !market) return `the database is empty: start with DEMO_DATA=true to load the demo market and print a demo key; or load data (${data}) and create a key (${key})`;
  if (!workspaces) return `the database has no workspace, so no API key answers: ${key}`;
  if (!market) return `the database has no market data: load some (${data}), or start once with DEMO_DATA=true for the demo market`;
  return null;
}
