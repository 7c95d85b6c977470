export const HOUR = 3_600_000;
export const DAY = 86_400_000;
/** Daily snapshots cover this many days, the last one being `asOf`. */
export const WINDOW_DAYS = 90;
export const EARLIEST_AD = Date.UTC(2018, 0, 1);

/** Days since the epoch (UTC) of a millisecond timestamp. */
export const dayOf = (ms: number) => Math.floor(ms / DAY);

export const isoDate = (day: number) => new Date(day * DAY).toISOString().slice(0, 10);

export const isoTimestamp = (ms: number) => new Date(ms).toISOString();

/** The snapshot window of one run: day numbers of its first and last (`asOf`) day. */
export type Window = { asOf: number; first: number; last: number; dates: string[] };

export function makeWindow(asOf: Date): Window {
  const last = dayOf(asOf.getTime());
  const first = last - WINDOW_DAYS + 1;
  const dates = Array.from({ length: WINDOW_DAYS }, (_, i) => isoDate(first + i));
  return { asOf: last * DAY, first, last, dates };
}
