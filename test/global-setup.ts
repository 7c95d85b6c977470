import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { connect } from '../src/db/client.js';
import { startEmbedded } from '../src/db/embedded.js';
import { migrate } from '../src/db/migrate.js';
import { alive, createPostgres, dropStaleTemplates, PREBUILT_MARKETS, TEMPLATE_PREFIX, type TemplateContext } from './support/templates.js';

const tsx = createRequire(import.meta.url).resolve('tsx/cli');

// Once per project and run: a migrated database that every test file's database is copied from (test/support/
// database.ts), instead of creating a cluster and applying every migration per file. On PostgreSQL a template database
// (`CREATE DATABASE … TEMPLATE`); on PGlite a tarball of the migrated data directory, loaded by each file's PGlite.
// Seeded markets are copied the same way: the first file that asks for one builds its template (test/support/
// templates.ts). Teardown drops this run's templates and files.

declare module 'vitest' {
  export interface ProvidedContext {
    testDatabaseTemplate: TemplateContext;
  }
}

/** The scratch folders (tarballs of hundreds of MB) of runs whose process is gone: a killed run never reached its teardown. */
async function removeStaleFolders(): Promise<void> {
  for (const name of await readdir(tmpdir())) {
    const pid = /^mi-test-(?:pglite|postgres)-(\d+)-/.exec(name)?.[1];
    if (pid && !alive(Number(pid))) await rm(path.join(tmpdir(), name), { recursive: true, force: true });
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const kind = project.config.env.TEST_DB === 'postgres' ? 'postgres' : 'pglite';
  await removeStaleFolders();
  const dir = await mkdtemp(path.join(tmpdir(), `mi-test-${kind}-${process.pid}-`));
  // A run's names start with its main process id: another run on the same server (another checkout) keeps its own.
  const run = `${TEMPLATE_PREFIX}${process.pid}_${path.basename(dir).slice(-6).toLowerCase().replace(/[^a-z0-9]/g, 'x')}`;
  let context: TemplateContext;
  if (kind === 'postgres') {
    const adminUrl = process.env.TEST_DATABASE_URL;
    if (!adminUrl) throw new Error('the postgres project needs TEST_DATABASE_URL');
    await dropStaleTemplates(adminUrl);
    const name = `${run}_migrated`;
    await createPostgres(adminUrl, name);
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    const db = connect(url.toString());
    try {
      await migrate(db.pool);
    } finally {
      await db.close();
    }
    context = { kind, run, dir, migrated: name };
  } else {
    const embedded = await startEmbedded(null);
    const db = connect(embedded.url);
    const file = path.join(dir, 'migrated.tar');
    try {
      try {
        await migrate(db.pool);
      } finally {
        await db.close();
      }
      await writeFile(file, Buffer.from(await (await embedded.dumpDataDir()).arrayBuffer()));
    } finally {
      await embedded.close();
    }
    context = { kind, run, dir, migrated: file };
  }
  project.provide('testDatabaseTemplate', context);
  // The shared markets' templates, built beside the first files (see support/build-templates.ts); its failure is only
  // logged: a file that needs the market builds it then, and fails on the same error there.
  const builder = spawn(process.execPath, [tsx, path.join(import.meta.dirname, 'support/build-templates.ts'), JSON.stringify({ context, markets: PREBUILT_MARKETS })], {
    cwd: path.resolve(import.meta.dirname, '..'),
    env: { ...process.env, TEST_DB: kind },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const built = once(builder, 'exit');

  return async () => {
    if (builder.exitCode === null) builder.kill();
    await built;
    if (kind === 'postgres') await dropStaleTemplates(process.env.TEST_DATABASE_URL!, run);
    await rm(dir, { recursive: true, force: true });
  };
}
