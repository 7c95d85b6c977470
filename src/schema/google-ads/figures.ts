import type { GoogleAd } from '../../generated/prisma/client.js';
import { daysRunning as running } from '../shared/days-running.js';

// Figures derived from a Google ad row; service/search.ts computes the same in SQL.

/** Calendar days from first seen (not before 2018-01-01) to today while active, else to last seen. */
export function daysRunning(ad: Pick<GoogleAd, 'status' | 'firstSeenAt' | 'lastSeenAt'>, now = Date.now()): number {
  return running({ status: ad.status, start: ad.firstSeenAt, lastSeenAt: ad.lastSeenAt, since2018: true }, now);
}
