import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { PrismaClient } from '../generated/prisma/client.js';
import { prismaStatementName } from './statements.js';

export type { PrismaClient };

export type Db = {
  pool: pg.Pool;
  prisma: PrismaClient;
  /** The credit ledger's own small pool: its short statements never wait behind data queries for a connection. */
  ledger: pg.Pool;
  close(): Promise<void>;
};

/** One pool per process, shared by Prisma (through the pg driver adapter) and the few raw SQL paths. */
export function connect(url: string, options: { max?: number } = {}): Db {
  // Generous connect timeout: on the embedded database a new connection waits its turn behind a long transaction (a seed).
  const pool = new pg.Pool({ connectionString: url, max: options.max ?? 8, connectionTimeoutMillis: 30_000 });
  pool.on('error', () => {}); // an idle client's error is reported on its next use
  // Prisma's own statements run prepared, its $queryRaw ones unnamed (src/db/statements.ts).
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool, { statementNameGenerator: (query) => prismaStatementName(query.sql) }) });
  const ledger = new pg.Pool({ connectionString: url, max: 4, connectionTimeoutMillis: 30_000 });
  ledger.on('error', () => {});
  return {
    pool,
    prisma,
    ledger,
    async close() {
      await prisma.$disconnect();
      await Promise.all([pool.end(), ledger.end()]);
    },
  };
}
