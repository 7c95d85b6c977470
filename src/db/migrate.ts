import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type pg from 'pg';
import { projectRoot } from './root.js';
import { acrossWorkspaces } from './workspace-check.js';

const migrationsDir = path.join(projectRoot, 'prisma/migrations');

/** The committed migrations, in order: `prisma/migrations/NNNN_name/migration.sql`. */
export async function listMigrations(): Promise<{ name: string; sql: string }[]> {
  const names = (await readdir(migrationsDir)).filter((name) => /^\d{4}_/.test(name)).sort();
  return Promise.all(names.map(async (name) => ({ name, sql: await readFile(path.join(migrationsDir, name, 'migration.sql'), 'utf8') })));
}

/** `done` of the `total` pending migrations applied, the last one `name`. */
export type MigrationProgress = { done: number; total: number; name: string | null };

const MIGRATION = acrossWorkspaces('a migration changes the tables of every workspace');

/**
 * Applies the migrations not yet recorded in `_migrations`, each in its own transaction.
 * An advisory lock keeps two starting instances from applying the same file twice. `onProgress` hears of the pending
 * ones before the first is applied (`done` 0) and after each.
 */
export async function migrate(pool: pg.Pool, onProgress?: (progress: MigrationProgress) => void): Promise<string[]> {
  const client = await pool.connect();
  const applied: string[] = [];
  try {
    await client.query('SELECT pg_advisory_lock(727274)');
    await client.query(
      'CREATE TABLE IF NOT EXISTS "_migrations" (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
    );
    const done = new Set((await client.query<{ name: string }>('SELECT name FROM "_migrations"')).rows.map((row) => row.name));
    const pending = (await listMigrations()).filter((migration) => !done.has(migration.name));
    if (pending.length) onProgress?.({ done: 0, total: pending.length, name: null });
    for (const migration of pending) {
      await client.query('BEGIN');
      try {
        await client.query(`${MIGRATION}\n${migration.sql}`);
        await client.query('INSERT INTO "_migrations" (name) VALUES ($1)', [migration.name]);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK');
        throw new Error(`migration ${migration.name} failed: ${(error as Error).message}`);
      }
      applied.push(migration.name);
      onProgress?.({ done: applied.length, total: pending.length, name: migration.name });
    }
  } finally {
    await client.query('SELECT pg_advisory_unlock(727274)').catch(() => {});
    client.release();
  }
  return applied;
}
