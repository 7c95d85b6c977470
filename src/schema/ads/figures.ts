import type { Ad } from '../../generated/prisma/client.js';
import { daysRunning as running } from '../shared/days-running.js';

// Figures derived from an ad row. The request's CPM travels with the rows it loaded.

export const DEFAULT_CPM = 9;
const CPM = Symbol('cpm');

type WithCpm = { [CPM]?: number };

export function withCpm<T extends object>(rows: T[], cpm: number): T[] {
  for (const row of rows) (row as WithCpm)[CPM] = cpm;
  return rows;
}

export const cpmOf = (ad: object): number => (ad as WithCpm)[CPM] ?? DEFAULT_CPM;

export function estimatedSpend(reach: bigint | number, cpm: number): number {
  return Math.round((Number(reach) * cpm) / 1000);
}

/** A row stands for a duplicate group when the group has more than one ad. */
export const isCollated = (ad: Pick<Ad, 'duplicates'>) => ad.duplicates > 1;

export function lastSeenAt(ad: Pick<Ad, 'duplicates' | 'status' | 'lastSeenAt'>): Date | null {
  return isCollated(ad) && ad.status === 'active' ? null : ad.lastSeenAt;
}

/** Calendar days from first seen (not before 2018-01-01) to today while active, else to last seen. */
export function daysRunning(ad: Pick<Ad, 'status' | 'firstSeenAt' | 'lastSeenAt'>, now = Date.now()): number {
  return running({ status: ad.status, start: ad.firstSeenAt, lastSeenAt: ad.lastSeenAt, since2018: true }, now);
}
