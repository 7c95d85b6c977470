// Telling a database that is unreachable or went away (a retryable 503 for the client) from every other failure
// (a bug: 500). The error may come from pg itself (the ledger's pool), or from Prisma, which wraps the driver
// adapter's error (`meta.driverAdapterError.cause`) in its own, and a resolver may wrap either again.

/**
 * Prisma's codes for a database it cannot reach or that closed the connection, a pool that gave no connection in time
 * (P2024), or a transaction that could not start or finish in its time (P2028: a burst of writes queued for the pool).
 */
const PRISMA_CODES = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2024', 'P2028']);
/** The driver adapter's kinds of the same. */
const ADAPTER_KINDS = new Set(['DatabaseNotReachable', 'ConnectionClosed', 'SocketTimeout', 'TooManyConnections', 'DatabaseAccessDenied']);
/** SQLSTATE class 08 (connection exception), 57P01-57P03 (administrator or crash shutdown, cannot connect now), 53300 (too many connections). */
const SQLSTATE = /^(08...|57P0[123]|53300)$/;
/** Node's socket errors. */
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'ENOTFOUND']);
/** pg's own errors for a connection that ended, or a pool that waited too long for one (they carry no code). */
const PG_MESSAGES = /Connection terminated|timeout exceeded when trying to connect|encountered a connection error and is not queryable|Client was closed and is not queryable|Cannot use a pool after calling end/;

function unavailableHere(error: Record<string, unknown>): boolean {
  const code = typeof error.code === 'string' ? error.code : undefined;
  if (code && (PRISMA_CODES.has(code) || SQLSTATE.test(code) || SOCKET_CODES.has(code))) return true;
  if (typeof error.kind === 'string' && ADAPTER_KINDS.has(error.kind)) return true;
  if (typeof error.originalCode === 'string' && SQLSTATE.test(error.originalCode)) return true;
  return typeof error.message === 'string' && PG_MESSAGES.test(error.message);
}

/** Whether the error (or one it wraps) says the database cannot be reached or ended the connection. */
export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (error === null || typeof error !== 'object' || depth > 6) return false;
  const e = error as Record<string, unknown>;
  if (unavailableHere(e)) return true;
  const meta = e.meta as Record<string, unknown> | undefined;
  const adapter = meta?.driverAdapterError as Record<string, unknown> | undefined;
  return [adapter, adapter?.cause, e.cause, e.originalError, ...(Array.isArray(e.errors) ? e.errors : [])].some((inner) => inner !== undefined && isDatabaseUnavailable(inner, depth + 1));
}
