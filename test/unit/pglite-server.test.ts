import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { servePGlite, type PGliteServer } from '../../src/db/pglite-server.js';

let db: PGlite;
let server: PGliteServer;
let url: string;
beforeAll(async () => {
  db = await PGlite.create();
  server = await servePGlite(db);
  url = `postgresql://postgres@127.0.0.1:${server.port}/postgres`;
  await db.exec('CREATE TABLE t (id int PRIMARY KEY, label text)');
});
afterAll(async () => {
  await server?.close();
  await db?.close();
});

describe('the embedded database served on loopback', () => {
  it('keeps each connection\'s parameterised statements apart under concurrency', async () => {
    const pool = new pg.Pool({ connectionString: url, max: 8 });
    try {
      // Different statements with different parameter counts, many at once on 8 connections.
      const results = await Promise.all(
        Array.from({ length: 200 }, (_, i) =>
          i % 2
            ? pool.query('SELECT $1::int AS n', [i]).then((r) => r.rows[0].n)
            : pool.query('SELECT $1::int + $2::int + $3::int AS n', [i, 0, 0]).then((r) => r.rows[0].n),
        ),
      );
      expect(results).toEqual(Array.from({ length: 200 }, (_, i) => i));
    } finally {
      await pool.end();
    }
  });

  it('delivers a large answer intact to a client slower than the server', async () => {
    // ~24 MB of distinct rows: more than a loopback socket takes at once, so pieces wait in the socket's queue.
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const { rows } = await client.query<{ i: number; s: string }>(`SELECT i, repeat(md5(i::text), 50) AS s FROM generate_series(1, 15000) i`);
      expect(rows.length).toBe(15000);
      const { createHash } = await import('node:crypto');
      const md5 = (i: number) => createHash('md5').update(String(i)).digest('hex');
      expect(rows.filter((row, n) => row.i !== n + 1 || row.s !== md5(row.i).repeat(50)).length).toBe(0);
    } finally {
      await client.end();
    }
  });

  it("runs one connection's transaction without another connection's statements inside it", async () => {
    const a = new pg.Client({ connectionString: url });
    const b = new pg.Client({ connectionString: url });
    await a.connect();
    await b.connect();
    try {
      await a.query('BEGIN');
      await a.query('INSERT INTO t VALUES (1, $1)', ['inside']);
      let seen: string[] | null = null;
      const reader = b.query('SELECT label FROM t ORDER BY id').then((r) => (seen = r.rows.map((row) => row.label)));
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(seen).toBeNull(); // b waits while a's transaction is open
      await a.query('ROLLBACK');
      await reader;
      expect(seen).toEqual([]);
    } finally {
      await a.end();
      await b.end();
    }
  });

  it('rolls back the transaction of a connection that goes away, and serves the others', async () => {
    const a = new pg.Client({ connectionString: url });
    await a.connect();
    await a.query('BEGIN');
    await a.query('INSERT INTO t VALUES (2, $1)', ['orphan']);
    a.on('error', () => {});
    (a as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
    const b = new pg.Client({ connectionString: url });
    await b.connect();
    try {
      expect((await b.query('SELECT count(*)::int AS n FROM t WHERE id = 2')).rows[0].n).toBe(0);
    } finally {
      await b.end();
    }
  });

  it("keeps each connection's prepared statements its own, and deallocates them when it goes away", async () => {
    const prepared = async () => (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_prepared_statements')).rows[0].n;
    const before = await prepared();
    const a = new pg.Client({ connectionString: url });
    const b = new pg.Client({ connectionString: url });
    await a.connect();
    await b.connect();
    try {
      // The same name on two connections, for different statements: each runs its own, again and again.
      for (let i = 0; i < 3; i++) {
        const [one, two] = await Promise.all([
          a.query({ name: 'same', text: 'SELECT $1::int + 1 AS n', values: [i] }),
          b.query({ name: 'same', text: 'SELECT $1::int * 10 AS n', values: [i] }),
        ]);
        expect([one.rows[0].n, two.rows[0].n]).toEqual([i + 1, i * 10]);
      }
      expect(await prepared()).toBe(before + 2);
      // A statement that fails to prepare leaves nothing behind and does not break the connection.
      await expect(a.query({ name: 'broken', text: 'SELECT nope FROM nowhere', values: [] })).rejects.toThrow(/nowhere/);
      expect((await a.query({ name: 'same', text: 'SELECT $1::int + 1 AS n', values: [41] })).rows[0].n).toBe(42);
    } finally {
      await a.end();
      await b.end();
    }
    await expect.poll(prepared).toBe(before);
  });
});
