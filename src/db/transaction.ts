import type { PrismaClient } from '../generated/prisma/client.js';

// How the workspace writes run their transactions, and the Idempotency-Key claim they record with (the request
// context carries it; src/schema/shared/audit.ts runs the writes, src/plugins/use-idempotency.ts the claims).

/**
 * One write under the request's Idempotency-Key claim (context.idempotentWrite, src/plugins/use-idempotency.ts): the
 * result a taken-over claim had committed, or the write to run and record with the claim in its own transaction.
 */
export type IdempotentWrite<T> = { replayed: true; value: T } | { replayed: false; record(tx: PrismaClient, value: T): Promise<T> };

// A burst of writes queues for the pool's connections (its connectionTimeoutMillis is 30 s) and, on one row, for
// that row's lock: a write waits its turn as long as the pool would, rather than failing after Prisma's default 2 s.
// The Idempotency-Key lease (LEASE_SECONDS, src/plugins/use-idempotency.ts) is derived from these bounds.
export const TRANSACTION = { maxWait: 30_000, timeout: 15_000 } as const;
