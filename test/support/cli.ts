import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { connect, type Db } from '../../src/db/client.js';
import { startEmbedded } from '../../src/db/embedded.js';
import { migrate } from '../../src/db/migrate.js';
import { createTestDatabase, type MarketTemplate } from './database.js';
import { marketOptions, pgliteTemplate, templateContext } from './templates.js';
import { seedMarket } from '../../src/data/market.js';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');

/** `json`: stdout parsed, when it is JSON (`--help` prints text). */
export type CliResult = { code: number; json: any; stdout: string; stderr: string };

/**
 * Builds dist/ as `npm run cli` and `npm start` do (src/build.mjs: only what changed, each file replaced whole, so
 * test files building at the same time never load a half-written module). Once per test file: each CLI call or server
 * start is then plain node. Returns the build's folder.
 */
export async function build(): Promise<string> {
  await run(process.execPath, [path.join(root, 'src/build.mjs')], { cwd: root });
  return path.join(root, 'dist');
}

/** Runs the built CLI with `env`; a non-zero exit is a result, not an error. */
export async function runCli(cli: string, env: NodeJS.ProcessEnv, args: string[]): Promise<CliResult> {
  const parsed = (stdout: string) => {
    try {
      return JSON.parse(stdout);
    } catch {
      return undefined;
    }
  };
  try {
    const { stdout, stderr } = await run(process.execPath, [cli, ...args], { cwd: root, env });
    return { code: 0, json: parsed(stdout), stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, json: parsed(failed.stdout), stdout: failed.stdout, stderr: failed.stderr };
  }
}

export type CliHarness = {
  db: Db;
  /** Runs the built CLI (`dist/src/cli.js <args>`) as a child process against this harness's database. */
  cli(...args: string[]): Promise<CliResult>;
  /** The same with these variables changed. */
  run(overrides: NodeJS.ProcessEnv, args: string[]): Promise<CliResult>;
  close(): Promise<void>;
};

/**
 * A database the operator CLI can reach from a child process: a fresh PostgreSQL database (TEST_DB=postgres), or an
 * embedded one in a scratch DATA_DIR that this test process serves, playing the running server the CLI must share.
 * Migrated, and holding `market` when given (copies of the run's templates, as createTestDatabase's).
 */
export async function createCliHarness(options: { market?: MarketTemplate } = {}): Promise<CliHarness> {
  const cli = path.join(await build(), 'src/cli.js');
  let env: NodeJS.ProcessEnv;
  let db: Db;
  let cleanup: () => Promise<void>;
  if (process.env.TEST_DB === 'postgres') {
    const database = await createTestDatabase({ market: options.market });
    db = database;
    env = { ...process.env, DATABASE_URL: database.url };
    cleanup = () => database.dispose();
  } else {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'mi-cli-'));
    const context = await templateContext();
    const embedded = await startEmbedded(dataDir, context ? { loadDataDir: await pgliteTemplate(context, options.market) } : {});
    db = connect(embedded.url);
    if (!context) await migrate(db.pool);
    if (options.market && !context) await seedMarket(db.pool, marketOptions(options.market).options);
    env = { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' };
    cleanup = async () => {
      await db.close();
      await embedded.close();
      await rm(dataDir, { recursive: true, force: true });
    };
  }
  return {
    db,
    cli: (...args) => runCli(cli, env, args),
    run: (overrides, args) => runCli(cli, { ...env, ...overrides }, args),
    close: () => cleanup(),
  };
}
