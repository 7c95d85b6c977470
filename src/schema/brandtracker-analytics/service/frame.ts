import type { Context } from '../../../context.js';
import { notFound } from '../../../errors.js';
import { Prisma } from '../../../generated/prisma/client.js';
import { DEFAULT_CPM } from '../../ads/service.js';
import { DAY_MS } from '../../shared/time.js';
import { inWorkspace } from '../../shared/workspace.js';

// The one engine of the per-brandtracker analytics: what every route reads first (the frame: which brand, its
// page, EU-only, the CPM, the snapshot day), and how it narrows the brand's ads (windows, periods, the snapshot).
// Every analytics route resolves its frame with `frameOf` and builds its SQL from `adsOf`, `windowSql`,
// `periodSql` and `spendSql`, so "last7d" or "latest" means the same thing on all of them.
//
// The snapshot: the crawler's reach history (`ad_reach_days`) holds one row per ad and day. A brand's snapshot days
// are the days its page's ads have rows; `snapshotDate` picks one (`latest`, or a date: the latest snapshot day on or
// before it). Without a `snapshotDate`, the routes read the live data (ads whose status is active) and windows end now.
// With one, "live" means the ads with a reach row on the resolved day (none when no day resolved), and windows end
// at the end of that day.

export const TIME_WINDOWS = ['live', 'last24h', 'last3d', 'last7d', 'last30d', 'last3m', 'last6m', 'last1y'] as const;
export type TimeWindow = (typeof TIME_WINDOWS)[number];

/** Days covered by each window but live (a window is the ads first seen in its days before the frame's end). */
export const WINDOW_DAYS: Record<Exclude<TimeWindow, 'live'>, number> = {
  last24h: 1, last3d: 3, last7d: 7, last30d: 30, last3m: 90, last6m: 180, last1y: 365,
};

/** The periods of ranking figures (top-ads `period`): how far back a delta or a launch count reaches. */
export const RANK_PERIODS = ['today', 'yesterday', 'last1d', 'last7d', 'last14d', 'last30d', 'total'] as const;
export type RankPeriod = (typeof RANK_PERIODS)[number];

/** The periods of a time series (`timeSeriesPeriod`): the days up to the frame's day; `yesterday` is that day alone. */
export const SERIES_PERIODS = ['today', 'yesterday', '1d', '7d', '14d', '30d', '90d', '365d'] as const;
export type SeriesPeriod = (typeof SERIES_PERIODS)[number];

export type Snapshot = {
  /** What the request asked for: `latest`, a date (YYYY-MM-DD), or null (live data). */
  requested: string | null;
  /** The snapshot day the request reads: null when none was asked for or the brand has none on or before it. */
  resolved: Date | null;
  /** Whole days from the requested day (today for `latest`) back to the resolved one. */
  lagDays: number | null;
};

export type Frame = {
  workspaceId: string;
  brandtrackerId: string;
  /** The workspace's display name of the brand. */
  name: string;
  /** The brand's Facebook page: its ads are the page's ads (null for a website brand without a page: no ads). */
  pageId: string | null;
  euOnly: boolean;
  cpm: number;
  snapshot: Snapshot;
  /** The instant windows end at: now, or the end of the snapshot day (of the day asked for when none resolved). */
  until: Date;
  /** The UTC day the analysis reads as today: the snapshot day (as for `until`), or today. */
  day: Date;
};

export type FrameRequest = {
  brandtrackerId: string;
  euOnly?: boolean | null;
  cpm?: number | null;
  /** `latest`, YYYY-MM-DD, or null; validated by `snapshotDate` (shared/time.ts). */
  snapshotDate?: string | null;
};

const today = (now = Date.now()) => new Date(Math.floor(now / DAY_MS) * DAY_MS);

/**
 * The frame of one analytics request, in one statement: the workspace's active link to the brandtracker (404 for
 * a missing, inactive or other workspace's one, before anything else runs) and, when asked for, the snapshot day.
 */
export async function frameOf(context: Context, request: FrameRequest, defaults: { euOnly: boolean }): Promise<Frame> {
  const { workspace } = await context.principal();
  const requested = request.snapshotDate ?? null;
  const now = new Date();
  const onOrBefore = requested === null || requested === 'latest' ? today(now.getTime()) : new Date(`${requested}T00:00:00Z`);
  const [row] = await context.prisma.$queryRaw<{ name: string; pageId: string | null; resolved: Date | null }[]>`
    SELECT coalesce(l."name", b."name") AS "name", b."facebookPageId" AS "pageId",
           ${requested === null ? Prisma.sql`NULL::date` : latestSnapshotDay(onOrBefore)} AS "resolved"
    FROM "brandtracker_links" l JOIN "brandtrackers" b ON b."id" = l."brandtrackerId"
    WHERE ${inWorkspace('l', workspace.id)} AND l."isActive" AND l."brandtrackerId" = ${request.brandtrackerId}::uuid`;
  if (!row) throw notFound(`Brandtracker "${request.brandtrackerId}"`);
  const resolved = row.resolved;
  const snapshot: Snapshot = {
    requested,
    resolved,
    lagDays: resolved === null ? null : Math.round((onOrBefore.getTime() - resolved.getTime()) / DAY_MS),
  };
  return {
    workspaceId: workspace.id,
    brandtrackerId: request.brandtrackerId,
    name: row.name,
    pageId: row.pageId,
    euOnly: request.euOnly ?? defaults.euOnly,
    cpm: request.cpm ?? DEFAULT_CPM,
    snapshot,
    until: requested === null ? now : new Date((resolved ?? onOrBefore).getTime() + DAY_MS),
    day: requested === null ? today(now.getTime()) : resolved ?? onOrBefore,
  };
}

/** The brand's latest snapshot day on or before a day: the newest reach row of each of its page's ads (PK probes). */
function latestSnapshotDay(onOrBefore: Date): Prisma.Sql {
  return Prisma.sql`(SELECT max(x."date") FROM "ads" a CROSS JOIN LATERAL (
      SELECT r."date" FROM "ad_reach_days" r WHERE r."adId" = a."id" AND r."date" <= ${onOrBefore}::date ORDER BY r."date" DESC LIMIT 1) x
    WHERE a."advertiserId" = b."facebookPageId")`;
}

/** The conditions on `alias` (an `ads` row) that make it one of the frame's ads: the brand's page, EU-only. */
export function adsOf(frame: Frame, alias = 'a'): Prisma.Sql {
  const a = Prisma.raw(`"${alias}"`);
  const page = Prisma.sql`${a}."advertiserId" = ${frame.pageId ?? ''}`;
  return frame.euOnly ? Prisma.sql`${page} AND ${a}."isEuAd"` : page;
}

/**
 * The window's condition on `alias`: `live` is the ads running at the frame's moment (active now, or with a reach
 * row on the snapshot day); `lastN` the ads first seen in the N days before the frame's end.
 */
export function windowSql(frame: Frame, window: TimeWindow, alias = 'a'): Prisma.Sql {
  const a = Prisma.raw(`"${alias}"`);
  if (window === 'live') {
    if (frame.snapshot.requested === null) return Prisma.sql`${a}."status" = 'active'`;
    if (frame.snapshot.resolved === null) return Prisma.sql`FALSE`;
    return Prisma.sql`EXISTS (SELECT 1 FROM "ad_reach_days" wr WHERE wr."adId" = ${a}."id" AND wr."date" = ${frame.snapshot.resolved}::date)`;
  }
  const from = new Date(frame.until.getTime() - WINDOW_DAYS[window] * DAY_MS);
  return Prisma.sql`${a}."firstSeenAt" >= ${from} AND ${a}."firstSeenAt" < ${frame.until}`;
}

/** The days of a series period, oldest first bound and last bound inclusive, ending on the frame's day. */
export function seriesDays(frame: Frame, period: SeriesPeriod): { start: Date; end: Date } {
  const end = period === 'yesterday' ? new Date(frame.day.getTime() - DAY_MS) : frame.day;
  const days = period === 'today' || period === 'yesterday' ? 1 : Number.parseInt(period, 10);
  return { start: new Date(end.getTime() - (days - 1) * DAY_MS), end };
}

/** The first instant a ranking period reaches back to (null for `total`): `today` is the frame's day. */
export function periodStart(frame: Frame, period: RankPeriod): Date | null {
  const back: Record<RankPeriod, number | null> = { today: 0, yesterday: 1, last1d: 1, last7d: 7, last14d: 14, last30d: 30, total: null };
  const days = back[period];
  return days === null ? null : new Date(frame.day.getTime() - days * DAY_MS);
}

/** Estimated spend of a reach expression at the frame's CPM: round(reach × cpm / 1000), as the ads' figures. */
export function spendSql(frame: Frame, reach: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`round(${reach}::numeric * ${frame.cpm}::numeric / 1000)::bigint`;
}

/** The snapshot part of a response's `meta`, the same on every route that takes `snapshotDate`. */
export function snapshotMeta(frame: Frame, periodNote: string) {
  return {
    requestedSnapshotDate: frame.snapshot.requested,
    resolvedSnapshotDate: frame.snapshot.resolved,
    dataFreshnessLagDays: frame.snapshot.lagDays,
    periodNote,
  };
}

/** What a window covers, for `meta.periodNote`: the ads live at the frame's moment, or first seen in its days. */
export function windowNote(frame: Frame, window: TimeWindow): string {
  const day = frame.snapshot.requested === null ? null : (frame.snapshot.resolved ?? frame.day).toISOString().slice(0, 10);
  if (window === 'live') {
    if (day === null) return 'Live active ads.';
    return frame.snapshot.resolved ? `Ads with a reach row on ${day}.` : 'No snapshot day on or before the requested date: no live ads.';
  }
  return `Ads first seen in the ${WINDOW_DAYS[window]} days before ${day === null ? 'now' : `the end of ${day}`}.`;
}
