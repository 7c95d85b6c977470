import { openAsBlob } from 'node:fs';
import { open, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { connect } from '../../src/db/client.js';
import { startEmbedded } from '../../src/db/embedded.js';
import { seedMarket, type MarketScale } from '../../src/data/market.js';

// The databases a test file starts from are copies of templates made once per run (test/global-setup.ts): the migrated
// schema, and each seeded market the files ask for, built by the first file that asks (the others wait for it) and
// copied by every file after it. A copy is the same bytes seedMarket would write again, in a fraction of the time.

/** Names of template databases on PostgreSQL: `mi_tpl_<main pid>_<run>_…`. */
export const TEMPLATE_PREFIX = 'mi_tpl_';

/** What the global setup hands the test files: where this run's migrated template is. */
export type TemplateContext = {
  kind: 'pglite' | 'postgres';
  /** The prefix of this run's template names. */
  run: string;
  /** This run's scratch folder (PGlite's tarballs, build locks). */
  dir: string;
  /** The migrated template: a database name (PostgreSQL) or a tarball of a data directory (PGlite). */
  migrated: string;
};

/** A seeded market, as `seedMarket` takes it; `seed` 42 and `asOf` today (UTC) unless given, as there. */
export type MarketTemplate = { scale: MarketScale; seed?: number; asOf?: Date };

/**
 * The markets several test files start from: the global setup builds their templates at the start of the run
 * (build-templates.ts). Any other market a file asks for is built by that file, once per run.
 */
export const PREBUILT_MARKETS: MarketTemplate[] = [
  { scale: 'tiny', seed: 7, asOf: new Date('2025-06-01T00:00:00Z') }, // support/tiny-market.ts, test/data/demo-*.test.ts
  { scale: 'tiny', seed: 42 }, // today's: seedMarket's and the demo's defaults
];

/** The run's templates, under vitest (its global setup); none in a script run without it. */
export async function templateContext(): Promise<TemplateContext | undefined> {
  if (!process.env.VITEST) return undefined;
  const { inject } = await import('vitest');
  return inject('testDatabaseTemplate');
}

/** `seedMarket`'s options with its defaults filled in, and a short key naming them. */
export function marketOptions(market: MarketTemplate): { options: { scale: MarketScale; seed: number; asOf: Date }; key: string } {
  const now = new Date();
  const asOf = market.asOf ?? new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  const options = { scale: market.scale, seed: market.seed ?? 42, asOf };
  const key = createHash('sha256').update(JSON.stringify(options)).digest('hex').slice(0, 12);
  return { options, key };
}

/** Whether a process of this machine is running (a run's templates and folders are named by its main process). */
export const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * Drops the template databases of `run`, or (without it) of runs whose main process is gone (a run stopped before its
 * teardown). Another run's live templates are left alone.
 */
export async function dropStaleTemplates(adminUrl: string, run?: string): Promise<void> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    const { rows } = await admin.query<{ datname: string }>('SELECT datname FROM pg_database WHERE starts_with(datname, $1)', [TEMPLATE_PREFIX]);
    for (const { datname } of rows) {
      const pid = Number(/^mi_tpl_(\d+)_/.exec(datname)?.[1]);
      if (run ? datname.startsWith(`${run}_`) : !alive(pid)) await admin.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
    }
  } finally {
    await admin.end();
  }
}

/** The PostgreSQL template to copy for `market` (the migrated one without): built now under a lock if no file has yet. */
export async function postgresTemplate(context: TemplateContext, adminUrl: string, market?: MarketTemplate): Promise<string> {
  if (!market) return context.migrated;
  const { options, key } = marketOptions(market);
  const name = `${context.run}_m_${key}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    // Held on this connection: released when it ends, also when the process building the template dies.
    await admin.query('SELECT pg_advisory_lock(hashtext($1))', [name]);
    const { rowCount } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (!rowCount) {
      const building = `${name}_b`;
      await admin.query(`DROP DATABASE IF EXISTS "${building}" WITH (FORCE)`);
      await admin.query(`CREATE DATABASE "${building}" TEMPLATE "${context.migrated}"`);
      const url = new URL(adminUrl);
      url.pathname = `/${building}`;
      const db = connect(url.toString());
      try {
        await seedMarket(db.pool, options);
      } finally {
        await db.close();
      }
      // Under its final name only once complete: a file that finds the name finds the whole market.
      await admin.query(`ALTER DATABASE "${building}" RENAME TO "${name}"`);
    }
  } finally {
    await admin.end();
  }
  return name;
}

/**
 * Creates the database `name`, a copy of `template` when given. A backend that just left the template (its builder's
 * pool) can still be counted as using it for a moment: PostgreSQL then refuses the copy, and it is tried again.
 */
export async function createPostgres(adminUrl: string, name: string, template?: string): Promise<void> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    for (let attempt = 1; ; attempt++) {
      try {
        await admin.query(`CREATE DATABASE "${name}"${template ? ` TEMPLATE "${template}"` : ''}`);
        return;
      } catch (error) {
        if (attempt >= 5 || !/being accessed by other users/.test((error as Error).message)) throw error;
        await sleep(500 * attempt);
      }
    }
  } finally {
    await admin.end();
  }
}

/** Runs `build(tmp)` once across the run's processes, unless `file` exists; `build` writes `tmp`, renamed to `file`. */
async function buildOnce(file: string, build: (tmp: string) => Promise<void>): Promise<void> {
  const lock = `${file}.lock`;
  for (;;) {
    if (await stat(file).then(() => true, () => false)) return;
    let handle;
    try {
      handle = await open(lock, 'wx');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const pid = Number(await readFile(lock, 'utf8').catch(() => ''));
      // A builder that died leaves its lock: the next one takes over.
      if (pid && !alive(pid)) await rm(lock, { force: true });
      else await sleep(250);
      continue;
    }
    try {
      await handle.writeFile(String(process.pid));
      await handle.close();
      const tmp = `${file}.${process.pid}.tmp`;
      await build(tmp);
      await rename(tmp, file);
    } finally {
      await rm(lock, { force: true });
    }
    return;
  }
}

/** The tarball of the PGlite data directory to start from for `market` (the migrated one without). */
export async function pgliteTemplate(context: TemplateContext, market?: MarketTemplate): Promise<Blob> {
  if (!market) return openAsBlob(context.migrated);
  const { options, key } = marketOptions(market);
  const file = path.join(context.dir, `market-${key}.tar`);
  await buildOnce(file, async (tmp) => {
    const embedded = await startEmbedded(null, { loadDataDir: await openAsBlob(context.migrated) });
    try {
      const db = connect(embedded.url);
      try {
        await seedMarket(db.pool, options);
      } finally {
        await db.close();
      }
      await writeFile(tmp, Buffer.from(await (await embedded.dumpDataDir()).arrayBuffer()));
    } finally {
      await embedded.close();
    }
  });
  return openAsBlob(file);
}
