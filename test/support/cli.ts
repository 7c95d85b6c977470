import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { connect, type Db } from '../../src/db/client.js';
import { startEmbedded } from '../../src/db/embedded.js';
import { migrate } from '../../src/db/migrate.js';
import { createTestDatabase } from './database.js';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');
const tsx = path.join(root, 'node_modules/.bin/tsx');

export type CliResult = { code: number; json: any; stdout: string };

export type CliHarness = {
  db: Db;
  /** Runs `src/cli.ts <args>` as a child process against this harness's database. */
  cli(...args: string[]): Promise<CliResult>;
  close(): Promise<void>;
};

/**
 * A database the operator CLI can reach from a child process: a fresh PostgreSQL database (TEST_DB=postgres), or an
 * embedded one in a scratch DATA_DIR that this test process serves, playing the running server the CLI must share.
 */
export async function createCliHarness(): Promise<CliHarness> {
  let env: NodeJS.ProcessEnv;
  let db: Db;
  let cleanup: () => Promise<void>;
  if (process.env.TEST_DB === 'postgres') {
    const database = await createTestDatabase();
    db = database;
    env = { ...process.env, DATABASE_URL: database.url };
    cleanup = () => database.dispose();
  } else {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'mi-cli-'));
    const embedded = await startEmbedded(dataDir);
    db = connect(embedded.url);
    await migrate(db.pool);
    env = { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' };
    cleanup = async () => {
      await db.close();
      await embedded.close();
      await rm(dataDir, { recursive: true, force: true });
    };
  }
  return {
    db,
    async cli(...args) {
      try {
        const { stdout } = await run(tsx, ['src/cli.ts', ...args], { cwd: root, env });
        return { code: 0, json: JSON.parse(stdout), stdout };
      } catch (error) {
        const failed = error as { code: number; stdout: string };
        return { code: failed.code, json: JSON.parse(failed.stdout), stdout: failed.stdout };
      }
    },
    close: () => cleanup(),
  };
}
