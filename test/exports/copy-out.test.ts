import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CopyOut, onlyField } from '../../src/schema/exports/service/copy-out.js';

// The export worker's COPY reader (service/copy-out.ts), against the real PostgreSQL: rows read off the socket, whole
// at any size, with the messages the server may put between them; a failure of the COPY or of its connection is the
// reader's error, and the connection goes on as pg's afterwards.

const url = process.env.TEST_DATABASE_URL;

/** Reads a COPY of one text column whole (a pause between reads, as a slow writer makes): its rows as text. */
async function readAll(client: pg.Client, statement: string, pause = 0): Promise<{ rows: string[]; ended: boolean }> {
  const copy = client.query(new CopyOut(`COPY (${statement}) TO STDOUT (FORMAT binary)`));
  const rows: string[] = [];
  while (await copy.read((bytes) => rows.push(onlyField(bytes).toString('utf8')))) {
    if (pause) await new Promise((resolve) => setTimeout(resolve, pause));
  }
  return { rows, ended: copy.ended };
}

describe.runIf(process.env.TEST_DB === 'postgres' && url)('CopyOut', () => {
  let client: pg.Client;
  beforeAll(async () => {
    client = new pg.Client({ connectionString: url });
    await client.connect();
  });
  afterAll(() => client.end());

  it('reads every row whole, from a few bytes to rows split across many reads, and leaves the connection usable', async () => {
    // Most rows share a read; one in fifty spans several (~400 KB: a socket reads 64 KB at a time).
    const size = (i: number) => (i % 50 === 25 ? 200_000 + i : (i * 37) % 3000);
    const { rows, ended } = await readAll(client, `SELECT i::text || ':' || repeat(chr(233), CASE WHEN i % 50 = 25 THEN 200000 + i ELSE (i * 37) % 3000 END) FROM generate_series(0, 2000) i`);
    expect(ended).toBe(true);
    expect(rows).toHaveLength(2001);
    rows.forEach((row, i) => expect(row, `row ${i}`).toBe(`${i}:${'é'.repeat(size(i))}`));
    expect((await client.query('SELECT 41 + 1 AS n')).rows).toEqual([{ n: 42 }]);
  });

  it('reads with pauses between its reads, and skips the notices sent between rows', async () => {
    await client.query(`CREATE OR REPLACE FUNCTION pg_temp.noisy(i int) RETURNS text LANGUAGE plpgsql AS $$
      BEGIN IF i % 100 = 0 THEN RAISE NOTICE 'row %', i; END IF; RETURN 'r' || i; END $$`);
    const notices: string[] = [];
    client.on('notice', (notice) => notices.push(notice.message ?? ''));
    const { rows } = await readAll(client, `SELECT pg_temp.noisy(i) FROM generate_series(1, 20000) i`, 1);
    expect(rows).toEqual(Array.from({ length: 20000 }, (_, i) => `r${i + 1}`));
    // The notices inside the COPY are skipped, not handed to pg (which would take them for its own messages).
    expect(notices).toEqual([]);
    expect((await client.query('SELECT 1 AS n')).rows).toEqual([{ n: 1 }]);
  });

  it("fails with the server's error when the statement fails halfway, and the connection goes on", async () => {
    const rows: string[] = [];
    const copy = client.query(new CopyOut(`COPY (SELECT CASE WHEN i = 30000 THEN (1 / (i - i))::text ELSE repeat('x', 100) END FROM generate_series(1, 40000) i) TO STDOUT (FORMAT binary)`));
    await expect(
      (async () => {
        while (await copy.read((bytes) => rows.push(onlyField(bytes).toString()))) {}
      })(),
    ).rejects.toThrow(/division by zero/);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.length).toBeLessThan(30000);
    expect(copy.ended).toBe(false);
    expect((await client.query('SELECT 2 AS n')).rows).toEqual([{ n: 2 }]);
  });

  it('fails when its connection is ended under it', async () => {
    const victim = new pg.Client({ connectionString: url });
    await victim.connect();
    victim.on('error', () => {});
    const pid = (await victim.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
    const copy = victim.query(new CopyOut(`COPY (SELECT repeat('y', 200) FROM generate_series(1, 5000000)) TO STDOUT (FORMAT binary)`));
    let read = 0;
    const reading = (async () => {
      while (await copy.read(() => read++)) {
        if (read > 1000) await new Promise((resolve) => setTimeout(resolve, 5));
      }
    })();
    while (read < 1000) await new Promise((resolve) => setTimeout(resolve, 5));
    await client.query('SELECT pg_terminate_backend($1)', [pid]);
    await expect(reading).rejects.toThrow();
    expect(copy.ended).toBe(false);
  });
});
