import pg from 'pg';

// The benches' own databases: each bench works on a database of its own (named by its URL), dropped and made anew.

/** Drops the database `url` names (disconnecting its sessions) and creates it empty, through the server's `postgres`. */
export async function recreateDatabase(url: string): Promise<void> {
  const admin = new URL(url);
  const name = admin.pathname.slice(1);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await client.query(`CREATE DATABASE "${name}"`);
  } finally {
    await client.end();
  }
}
