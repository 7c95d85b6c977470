import pg from 'pg';

// Pools whose statement timeout is set when a connection connects (a startup parameter), for statements that may
// give up (GET /v1/lookup's sources): each is then one round trip, and no session setting is changed and restored
// around it.
// PGlite serves one backend to every connection, so a SET there would reach every other client's statements
// too; it ignores startup parameters, so the embedded database simply runs the sources without a bound.

const pools = new WeakMap<pg.Pool, Map<number, pg.Pool>>();

/** A small pool beside `base`, on the same database, whose every statement times out after `timeoutMs`. */
export function timedPool(base: pg.Pool, timeoutMs: number): pg.Pool {
  let byTimeout = pools.get(base);
  if (!byTimeout) pools.set(base, (byTimeout = new Map()));
  let pool = byTimeout.get(timeoutMs);
  if (!pool) {
    // Idle connections close soon and never hold the process open: the pool ends with its base's database.
    pool = new pg.Pool({ ...base.options, max: 4, statement_timeout: timeoutMs, idleTimeoutMillis: 2_000, allowExitOnIdle: true });
    pool.on('error', () => {}); // an idle connection's error (the database went away) surfaces on its next use
    byTimeout.set(timeoutMs, pool);
  }
  return pool;
}
