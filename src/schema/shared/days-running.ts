import { Prisma } from '../../generated/prisma/client.js';
import { DAY_MS } from './time.js';

// Days running, in TypeScript for loaded rows and in SQL for filters and sorts: the same rule in both.

const SINCE = '2018-01-01';
const SINCE_MS = Date.UTC(2018, 0, 1);

/** Columns of a row that runs: its status, its start and when it was last seen; `since2018` floors the start. */
export type RunningColumns = { alias: string; start: string; since2018: boolean };

/** Whole days from the start to now while active, else to when it was last seen. */
export function daysRunningSql({ alias, start, since2018 }: RunningColumns): Prisma.Sql {
  const from = since2018 ? `greatest(${alias}."${start}", timestamptz '${SINCE}')` : `${alias}."${start}"`;
  return Prisma.raw(`floor(extract(epoch FROM (CASE WHEN ${alias}."status" = 'active' THEN now() ELSE ${alias}."lastSeenAt" END) - ${from}) / 86400)`);
}

export function daysRunning(row: { status: string; start: Date; lastSeenAt: Date; since2018: boolean }, now = Date.now()): number {
  const start = row.since2018 ? Math.max(row.start.getTime(), SINCE_MS) : row.start.getTime();
  const end = row.status === 'active' ? now : row.lastSeenAt.getTime();
  return Math.max(0, Math.floor((end - start) / DAY_MS));
}
