import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

// The embedded PostgreSQL (PGlite, in WASM) is served on a loopback port (src/db/pglite-server.ts), so the
// server, its pool and a second process (the operator CLI) all reach it as an ordinary PostgreSQL.
// Only one process may open a data directory: the one that does records its address in `embedded.json`.

export type EmbeddedDatabase = { url: string; close(): Promise<void> };

const lockFile = (dataDir: string) => path.join(dataDir, 'embedded.json');

/** Starts PGlite on `dataDir` (or in memory when null) and serves it on 127.0.0.1 at an ephemeral port. */
export async function startEmbedded(dataDir: string | null): Promise<EmbeddedDatabase> {
  if (dataDir) await mkdir(path.join(dataDir, 'pgdata'), { recursive: true });
  // Loaded here, not with the module: a process that only uses a running server's database (the CLI) never loads PGlite.
  const [{ PGlite }, { btree_gin }, { cube }, { pg_trgm }, { servePGlite }] = await Promise.all([
    import('@electric-sql/pglite'), import('@electric-sql/pglite/contrib/btree_gin'), import('@electric-sql/pglite/contrib/cube'),
    import('@electric-sql/pglite/contrib/pg_trgm'), import('./pglite-server.js'),
  ]);
  // pg_trgm: the lookup's fuzzy name matching (migration 0010); cube: image fingerprints (migration 0012); btree_gin:
  // the emails' text index with their dates (migration 0025). PostgreSQL ships all three in its contrib; PGlite loads
  // them on request.
  const db = await PGlite.create(dataDir ? path.join(dataDir, 'pgdata') : undefined, { extensions: { pg_trgm, cube, btree_gin } });
  const server = await servePGlite(db);
  const url = `postgresql://postgres@127.0.0.1:${server.port}/postgres?sslmode=disable`;
  if (dataDir) await writeFile(lockFile(dataDir), JSON.stringify({ pid: process.pid, url }));
  return {
    url,
    async close() {
      await server.close();
      await db.close();
      if (dataDir) await rm(lockFile(dataDir), { force: true });
    },
  };
}

/** The address of the embedded database another live process serves from `dataDir`, if any. */
export async function findRunningEmbedded(dataDir: string): Promise<string | null> {
  try {
    const { pid, url } = JSON.parse(await readFile(lockFile(dataDir), 'utf8')) as { pid: number; url: string };
    if (pid === process.pid) return null;
    process.kill(pid, 0);
    return url;
  } catch {
    return null;
  }
}
