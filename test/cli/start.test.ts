import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from '../support/cli.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';

// `npm start` as a new user meets it: the server process (the build of src/main.ts, as `npm start` runs it) on a new
// database. What it prints while it starts is its interface here: the lines are asserted, never how long they took.

const postgres = process.env.TEST_DB === 'postgres';
let main: string;
const children: ChildProcess[] = [];
const cleanups: (() => Promise<void>)[] = [];

beforeAll(async () => {
  main = path.join(await build(), 'src/main.js');
});
afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  for (const cleanup of cleanups) await cleanup();
});

type Started = {
  /** stdout's lines: a log line's `msg` (JSON logs), other lines as they are. */
  out: string[];
  err: string[];
  /** Resolves with the first stdout line matching `test` (null when the process exits first). */
  next(test: RegExp): Promise<string | null>;
  exited: Promise<number | null>;
  port(): number | undefined;
  /** SIGTERM, then its exit code. */
  stop(): Promise<number | null>;
};

function start(env: NodeJS.ProcessEnv): Started {
  const child = spawn(process.execPath, [main], {
    cwd: path.dirname(path.dirname(main)),
    env: { ...cleanEnv(), LOG_FORMAT: 'json', LOG_LEVEL: 'info', HOST: '127.0.0.1', WORKERS: 'off', DEMO_TICK: 'off', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  const out: string[] = [];
  const err: string[] = [];
  let port: number | undefined;
  const waiters: { test: RegExp; resolve: (line: string | null) => void }[] = [];
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  void exited.then(() => waiters.splice(0).forEach((waiter) => waiter.resolve(null)));
  const lines = (stream: NodeJS.ReadableStream, into: string[], onLine?: (line: string) => void) => {
    let buffer = '';
    stream.on('data', (chunk: Buffer) => {
      buffer += chunk.toString('utf8');
      let newline;
      while ((newline = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 1);
        into.push(line);
        onLine?.(line);
      }
    });
  };
  lines(child.stdout!, out, (raw) => {
    let line = raw;
    try {
      const entry = JSON.parse(raw) as { msg: string; port?: number };
      line = entry.msg;
      port ??= entry.port;
      out[out.length - 1] = line;
    } catch {
      // the demo key's banner
    }
    for (const waiter of [...waiters]) if (waiter.test.test(line)) waiters.splice(waiters.indexOf(waiter), 1) && waiter.resolve(line);
  });
  lines(child.stderr!, err);
  return {
    out,
    err,
    next: (test) => new Promise((resolve) => {
      const found = out.find((line) => test.test(line));
      if (found !== undefined || child.exitCode !== null) resolve(found ?? null);
      else waiters.push({ test, resolve });
    }),
    exited,
    port: () => port,
    stop: () => {
      child.kill('SIGTERM');
      return exited;
    },
  };
}

/** The environment without this test run's database settings: each start names its own. */
function cleanEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of ['DATABASE_URL', 'DATA_DIR', 'REDIS_URL', 'DEMO_DATA', 'PORT', 'METRICS', 'METRICS_PORT']) delete env[name];
  return env;
}

async function scratchDir(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'mi-start-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

async function freshDatabase(): Promise<TestDatabase> {
  const database = await createTestDatabase({ migrated: false });
  cleanups.push(() => database.dispose());
  return database;
}

async function holdPort(): Promise<{ server: Server; port: number }> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise((resolve) => server.close(() => resolve())));
  return { server, port: (server.address() as { port: number }).port };
}

describe('npm start', () => {
  it('a port in use: one line naming the port and the variable, exit 1, before the database is opened', async () => {
    const { port } = await holdPort();
    // No database is reachable at this address, and the data folder must not be created: the port comes first.
    const dataDir = path.join(await scratchDir(), 'data');
    const database = postgres ? { DATABASE_URL: 'postgresql://nobody@127.0.0.1:1/none' } : { DATA_DIR: dataDir };
    for (const [env, variable] of [[{ PORT: String(port) }, 'PORT'], [{ PORT: '0', METRICS_PORT: String(port) }, 'METRICS_PORT']] as const) {
      const server = start({ ...database, ...env });
      expect(await server.exited).toBe(1);
      expect(server.out).toEqual([`port ${port} is in use; set ${variable}=<a free port>, or stop the process that holds it`]);
      expect(server.err).toEqual([]);
    }
    // Readable logs (a terminal's): the same single line.
    const pretty = start({ ...database, PORT: String(port), LOG_FORMAT: 'pretty' });
    expect(await pretty.exited).toBe(1);
    expect(pretty.out).toHaveLength(1);
    expect(pretty.out[0]).toMatch(new RegExp(`port ${port} is in use; set PORT=`));
    expect(existsSync(dataDir)).toBe(false);
  });

  it('a malformed setting of a domain: one line naming it, exit 1, before the database is opened', async () => {
    const dataDir = path.join(await scratchDir(), 'data');
    const database = postgres ? { DATABASE_URL: 'postgresql://nobody@127.0.0.1:1/none' } : { DATA_DIR: dataDir };
    for (const [env, line] of [
      [{ EXPORT_CHUNK_ROWS: 'lots' }, 'invalid configuration: EXPORT_CHUNK_ROWS must be a whole number from 1 to 10000, got "lots"'],
      [{ WEBHOOK_TIMEOUT_MS: '2.5' }, 'invalid configuration: WEBHOOK_TIMEOUT_MS must be a whole number of at least 1, got "2.5"'],
      [{ SYNC_LEASE_MS: '10' }, 'invalid configuration: SYNC_LEASE_MS must be a whole number of milliseconds of at least 1000, got "10"'],
    ] as const) {
      const server = start({ ...database, PORT: '0', ...env });
      expect(await server.exited).toBe(1);
      expect(server.out).toEqual([line]);
    }
    expect(existsSync(dataDir)).toBe(false);
  });

  // The embedded database's first start: creating it, the migrations and the demo load take up to ~125 s on a busy
  // 2-core machine (measured in issue #39), more than the suite's per-test timeout, which is sized for tests that do
  // not start a server from nothing.
  it.runIf(!postgres)('the first start on the embedded database: creating it, each migration, the demo load, then the key that answers', { timeout: 600_000 }, async () => {
    const server = start({ PORT: '0', DATA_DIR: path.join(await scratchDir(), 'data') });
    const key = await server.next(/^\s+mik_\S+$/);
    expect(key, [...server.out, ...server.err].join('\n')).not.toBeNull();
    const steps = [
      /^creating the embedded database in .+ \(first start\)…$/,
      /^embedded database created in \d+\.\d s$/,
      /^applying (\d+) migrations…$/,
      /^migration 1\/\d+ applied: 0001_init \(\d+\.\d s\)$/,
      /^migrations applied in \d+\.\d s$/,
      /^loading the demo market \(scale tiny\)…$/,
      /^demo market loaded in \d+\.\d s: .*\b3000 ads\b/,
      /^REST http:\/\/localhost:\d+\/v1 · GraphQL and GraphiQL .* · ready in \d+\.\d s$/,
      /^demo workspace "demo" created\. Its API key is shown this once/,
    ];
    const at = steps.map((step) => server.out.findIndex((line) => step.test(line)));
    expect(at.every((index) => index >= 0), server.out.join('\n')).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    const total = Number(/^applying (\d+) migrations/.exec(server.out[at[2]])![1]);
    expect(server.out.filter((line) => /^migration \d+\/\d+ applied: /.test(line))).toHaveLength(total);
    // The demo load's progress, one line per table as it completes (stderr is not a terminal here).
    expect(server.err.some((line) => /^\s+ads\s+\[#{20}\] 100%\s+3,000\/3,000/.test(line)), server.err.join('\n')).toBe(true);
    expect(server.out.some((line) => /^\s+curl -H "Authorization: Bearer mik_\S+" "http:\/\/localhost:\d+\/v1\/ads\?search=summer&limit=3"$/.test(line))).toBe(true);
    expect(server.out.some((line) => /the database is empty|no workspace|no market data/.test(line))).toBe(false);

    const answer = await fetch(`http://127.0.0.1:${server.port()}/v1/ads?search=summer&limit=3`, { headers: { authorization: `Bearer ${key!.trim()}` } });
    expect(answer.status).toBe(200);
    expect(((await answer.json()) as { data: unknown[] }).data.length).toBeGreaterThan(0);
    expect(await server.stop()).toBe(0);
  });

  it.runIf(postgres)('the first start on an empty PostgreSQL without DEMO_DATA: each migration, then how to load the demo or create a key', async () => {
    const database = await freshDatabase();
    const server = start({ PORT: '0', DATABASE_URL: database.url });
    const hint = await server.next(/^the database is empty/);
    expect(hint, [...server.out, ...server.err].join('\n')).toBe(
      'the database is empty: start with DEMO_DATA=true to load the demo market and print a demo key; or load data ' +
        '(npm run --silent cli -- import, sync run or seed) and create a key (npm run --silent cli -- workspace create --slug S, then key create --workspace S)',
    );
    const total = Number(/^applying (\d+) migrations…$/.exec(server.out.find((line) => line.startsWith('applying'))!)![1]);
    expect(total).toBeGreaterThan(30);
    expect(server.out.filter((line) => /^migration \d+\/\d+ applied: /.test(line))).toHaveLength(total);
    expect(server.out.some((line) => line.startsWith('creating the embedded database'))).toBe(false);
    expect(server.out.some((line) => /mik_/.test(line))).toBe(false);
    expect(await server.stop()).toBe(0);

    // With a workspace but still no market data, the next start says what is missing.
    await database.prisma.workspace.create({ data: { slug: 'w', name: 'w' } });
    const again = start({ PORT: '0', DATABASE_URL: database.url });
    expect(await again.next(/^the database has no market data/), again.out.join('\n')).toBe(
      'the database has no market data: load some (npm run --silent cli -- import, sync run or seed), or start once with DEMO_DATA=true for the demo market',
    );
    expect(again.out.some((line) => /^applying|^the database is empty/.test(line))).toBe(false);
    expect(await again.stop()).toBe(0);
  });
});
