import { existsSync } from 'node:fs';
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { diffDatamodels } from './schema-engine.js';

// Usage: npm run db:migration -- <name>
// Writes prisma/migrations/<NNNN>_<name>/migration.sql: the SQL from the datamodel of the last migration
// (prisma/migrations/datamodel.prisma) to prisma/schema.prisma, then records the new datamodel.
const root = path.resolve(import.meta.dirname, '../..');
const migrationsDir = path.join(root, 'prisma/migrations');
const snapshotPath = path.join(migrationsDir, 'datamodel.prisma');

const name = (process.argv[2] ?? '').replace(/[^a-z0-9_]+/gi, '_').toLowerCase();
if (!name) {
  console.error('usage: npm run db:migration -- <name>');
  process.exit(2);
}
const to = await readFile(path.join(root, 'prisma/schema.prisma'), 'utf8');
const from = existsSync(snapshotPath) ? await readFile(snapshotPath, 'utf8') : null;
const sql = await diffDatamodels(from, to);
if (!sql.trim() || /^-- This is an empty migration/.test(sql.trim())) {
  console.log('schema.prisma has no changes since the last migration');
  process.exit(0);
}
await mkdir(migrationsDir, { recursive: true });
// The next number after the highest (not the count: a number may have been skipped, as 0015 was).
const last = Math.max(0, ...(await readdir(migrationsDir)).filter((entry) => /^\d{4}_/.test(entry)).map((entry) => Number(entry.slice(0, 4))));
const dir = path.join(migrationsDir, `${String(last + 1).padStart(4, '0')}_${name}`);
await mkdir(dir);
await writeFile(path.join(dir, 'migration.sql'), sql);
await writeFile(snapshotPath, to);
console.log(`wrote ${path.relative(root, dir)}/migration.sql`);
