import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type pg from 'pg';

// The embedded PostgreSQL (PGlite, in WASM) is served on a loopback port (src/db/pglite-server.ts), so the
// server, its pool and a second process (the operator CLI) all reach it as an ordinary PostgreSQL.
// Only one process may open a data directory: the one that does records its address in `embedded.json`.

export type EmbeddedDatabase = {
  url: string;
  /** The data directory as a tarball (after a checkpoint), for `startEmbedded`'s `loadDataDir`. */
  dumpDataDir(): Promise<Blob>;
  close(): Promise<void>;
};

const lockFile = (dataDir: string) => path.join(dataDir, 'embedded.json');

/** Whether the database is the embedded PGlite (one backend: a transaction holds all of it). */
export async function isEmbedded(db: Pick<pg.Pool | pg.Client, 'query'>): Promise<boolean> {
  const { rows } = await db.query<{ version: string }>('SELECT version() AS version');
  return /emscripten|wasm|pglite/i.test(rows[0]?.version ?? '');
}

/**
 * Starts PGlite on `dataDir` (or in memory when null) and serves it on 127.0.0.1 at an ephemeral port.
 * `loadDataDir`: a tarball of a data directory (`dumpDataDir`) to start from, into an empty `dataDir`, instead of
 * creating a new cluster (PGlite's initdb: most of the time a new database takes). `cacheMb`: its page cache
 * (shared_buffers; PGlite's default 128 MB when not given), which lives in the WebAssembly memory: the process's RSS
 * holds it whole once touched, and a database page it does not hold is read from the files (the OS's cache).
 */
export async function startEmbedded(dataDir: string | null, options: { loadDataDir?: Blob; cacheMb?: number } = {}): Promise<EmbeddedDatabase> {
  if (dataDir) await mkdir(path.join(dataDir, 'pgdata'), { recursive: true });
  // Loaded here, not with the module: a process that only uses a running server's database (the CLI) never loads PGlite.
  const [{ PGlite }, { btree_gin }, { cube }, { pg_trgm }, { servePGlite }] = await Promise.all([
    import('@electric-sql/pglite'), import('@electric-sql/pglite/contrib/btree_gin'), import('@electric-sql/pglite/contrib/cube'),
    import('@electric-sql/pglite/contrib/pg_trgm'), import('./pglite-server.js'),
  ]);
  // pg_trgm: the lookup's fuzzy name matching (migration 0010); cube: image fingerprints (migration 0012); btree_gin:
  // the emails' text index with their dates (migration 0025). PostgreSQL ships all three in its contrib; PGlite loads
  // them on request.
  const db = await PGlite.create(dataDir ? path.join(dataDir, 'pgdata') : undefined, {
    extensions: { pg_trgm, cube, btree_gin },
    ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
    ...(options.cacheMb ? { startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${options.cacheMb}MB`] } : {}),
  });
  const server = await servePGlite(db);
  const url = `postgresql://postgres@127.0.0.1:${server.port}/postgres?sslmode=disable`;
  if (dataDir) await writeFile(lockFile(dataDir), JSON.stringify({ pid: process.pid, url }));
  return {
    url,
    async dumpDataDir() {
      await db.exec('CHECKPOINT');
      const { rows: [{ wal }] } = await db.query<{ wal: string }>('SELECT pg_walfile_name(pg_current_wal_lsn()) AS wal');
      return withoutSpareWal(new Uint8Array(await (await db.dumpDataDir('none')).arrayBuffer()), wal);
    },
    async close() {
      await server.close();
      await db.close();
      if (dataDir) await rm(lockFile(dataDir), { force: true });
    },
  };
}

/**
 * The tarball (ustar) without the WAL segments a start from it does not read: after the checkpoint, recovery reads
 * from the segment `current` holds (kept with the one before it); the older ones are spent and the later ones are
 * recycled spares, which PostgreSQL creates again when it needs them. After a bulk load they are most of the size.
 */
function withoutSpareWal(tar: Uint8Array<ArrayBuffer>, current: string): Blob {
  // A segment's name: timeline, then the log and segment numbers (8 hex digits each; 256 segments of 16 MB per log).
  const [timeline, log, segment] = [0, 8, 16].map((at) => parseInt(current.slice(at, at + 8), 16));
  const before = segment > 0 ? [log, segment - 1] : [log - 1, 0xff];
  const keep = new Set([current, [timeline, ...before].map((n) => n.toString(16).toUpperCase().padStart(8, '0')).join('')]);
  const parts: Uint8Array<ArrayBuffer>[] = [];
  for (let at = 0; at + 512 <= tar.length; ) {
    const header = tar.subarray(at, at + 512);
    if (header.every((byte) => byte === 0)) break;
    const field = (from: number, to: number) => new TextDecoder().decode(header.subarray(from, to)).replace(/\0.*$/s, '');
    const name = [field(345, 500), field(0, 100)].filter(Boolean).join('/');
    const size = parseInt(field(124, 136).trim() || '0', 8);
    const end = at + 512 + Math.ceil(size / 512) * 512;
    const wal = /pg_wal\/([0-9A-F]{24})$/.exec(name)?.[1];
    if (!wal || keep.has(wal)) parts.push(tar.subarray(at, end));
    at = end;
  }
  parts.push(new Uint8Array(1024));
  return new Blob(parts);
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
