import { z } from 'zod';
import { builder } from '../builder.js';
import { PagePaginationRef, pagePagination, type PagePagination, type PageRequest } from '../shared/list.js';
import { frameArgs } from './args.js';
import { SnapshotMetaRef } from './types.js';
import { DateRangeRef, seriesRange, seriesRangeRule } from './series.js';
import { evolutionPage, frameOf, snapshotMeta, type DateRange, type EvolutionKind, type EvolutionPoint, type EvolutionSeries } from './service.js';

// GET /v1/brandtrackers/{brandtrackerId}/ad-copy-evolution, /headline-evolution and /landing-page-evolution: one
// mechanism (service/evolution.ts) over three texts of the brand's ads: the copy (body), the headline (title) and the
// landing page URL. Global mode pages over the distinct texts; exact mode (the text given) answers at most one.

type Point = Omit<EvolutionPoint, 'date'> & { date: string };
type Response = { dateRange: DateRange; pagination: PagePagination; meta: ReturnType<typeof snapshotMeta>; data: EvolutionSeries[] };

/** Series per page in global mode. */
const DEFAULT_LIMIT = 10;
const MAX_LIMIT = 20;

const PointRef = builder.objectRef<Point>('BrandtrackerEvolutionPoint').implement({
  description: 'One snapshot day of the brand (a day with reach rows of its ads).',
  fields: (t) => ({
    date: t.field({ type: 'Date', resolve: (point) => new Date(`${point.date}T00:00:00Z`) }),
    recordedAt: t.field({ type: 'DateTime', description: 'Snapshots are daily: the snapshot day at 00:00 UTC.', resolve: (point) => new Date(`${point.date}T00:00:00Z`) }),
    activeAds: t.exposeInt('activeAds', { description: 'Ads with the text live that day (first seen on or before it, last seen on or after it, or still active).' }),
    totalAds: t.exposeInt('totalAds', { description: 'Ads with the text first seen on or before that day.' }),
    euAds: t.exposeInt('euAds', { description: 'totalAds flagged as EU ads.' }),
    euActiveAds: t.exposeInt('euActiveAds', { description: 'activeAds flagged as EU ads.' }),
    totalReach: t.expose('totalReach', { type: 'SafeInt', description: "The latest cumulative reach of the text's ads on or before that day." }),
    percentNewAds: t.exposeFloat('percentNewAds', { description: 'Live ads first seen that day, in percent of activeAds (one decimal; 0 without live ads).' }),
  }),
});

const KINDS: Record<EvolutionKind, { path: string; field: string; label: string; argDescription: string }> = {
  adCopy: { path: 'ad-copy-evolution', field: 'brandtrackerAdCopyEvolution', label: 'ad copy', argDescription: 'Exact ad copy (the ad body, case and spaces as stored)' },
  headline: { path: 'headline-evolution', field: 'brandtrackerHeadlineEvolution', label: 'headline', argDescription: 'Exact headline (the ad title, case and spaces as stored)' },
  landingPage: { path: 'landing-page-evolution', field: 'brandtrackerLandingPageEvolution', label: 'landing page', argDescription: 'Exact landing page URL, as the landing-pages routes show it' },
};

const NAMES = { period: 'period', startDate: 'startDate', endDate: 'endDate' };
const iso = (day: Date) => day.toISOString().slice(0, 10);

function evolutionField(kind: EvolutionKind) {
  const { path, field, label, argDescription } = KINDS[kind];
  const typeName = `Brandtracker${kind[0].toUpperCase()}${kind.slice(1)}Evolution`;
  const SeriesRef = builder.objectRef<EvolutionSeries>(`${typeName}Series`).implement({
    fields: (t) => ({
      [kind]: t.exposeString('key', { description: `The ${label}.` }),
      points: t.field({ type: [PointRef], description: 'Oldest first.', resolve: (series) => series.points }),
    }),
  });
  const ResponseRef = builder.objectRef<Response>(`${typeName}Response`).implement({
    fields: (t) => ({
      dateRange: t.field({ type: DateRangeRef, resolve: (response) => response.dateRange }),
      pagination: t.field({ type: PagePaginationRef, description: `By distinct ${label} series; exact mode: page 1, limit 1.`, resolve: (response) => response.pagination }),
      meta: t.field({ type: SnapshotMetaRef, resolve: (response) => response.meta }),
      data: t.field({ type: [SeriesRef], resolve: (response) => response.data }),
    }),
  });
  builder.queryFields((t) => ({
    [field]: t.field({
      type: ResponseRef,
      authScopes: { workspace: true },
      description:
        `The evolution of a brandtracker's ${label}s (GET /v1/brandtrackers/{brandtrackerId}/${path}): one series per distinct ${label} of its ads, ` +
        `one point per snapshot day in the range. Without ${kind}, pages over the ${label}s live in the range, ranked by their live ads on its last day ` +
        `(then their ads, then the text); with ${kind}, that one series (none when no ad of the brand uses it in the range).`,
      args: {
        ...frameArgs({ euOnly: false, snapshot: true }),
        page: t.arg.int({ defaultValue: 1, description: 'Page of series, from 1 (global mode; exact mode answers page 1).', validate: z.number().int().min(1) }),
        limit: t.arg.int({
          defaultValue: DEFAULT_LIMIT,
          description: `Series per page, 1..${MAX_LIMIT} (default ${DEFAULT_LIMIT}; global mode). Exact mode returns at most one series and reports limit 1.`,
          validate: z.number().int().min(1).max(MAX_LIMIT),
        }),
        startDate: t.arg({ type: 'Date', description: 'First day (inclusive). Default: 365 days before the end; at most 365 days before it.' }),
        endDate: t.arg({ type: 'Date', description: 'Last day (inclusive). Default: today, or the snapshot day. Not with snapshotDate (which is then the end).' }),
        [kind]: t.arg.string({ description: `${argDescription}: its series alone (exact mode).`, validate: z.string().min(1).max(5000) }),
      },
      validate: seriesRangeRule(NAMES),
      resolve: async (_root, args, context) => {
        const frame = await frameOf(context, { brandtrackerId: args.brandtrackerId, snapshotDate: args.snapshotDate }, { euOnly: false });
        const range = seriesRange(frame, { startDate: args.startDate as Date | null | undefined, endDate: args.endDate as Date | null | undefined }, NAMES);
        const exact = (args as Record<string, unknown>)[kind] as string | null | undefined;
        const page: PageRequest = exact != null ? { page: 1, limit: 1 } : { page: args.page ?? 1, limit: args.limit ?? DEFAULT_LIMIT };
        const { data, total } = await evolutionPage(context.prisma, frame, { kind, range, exact: exact ?? null, page });
        return {
          dateRange: { startDate: range.start, endDate: range.end },
          pagination: pagePagination(page, total),
          meta: snapshotMeta(frame, `Snapshot days from ${iso(range.start)} to ${iso(range.end)}.`),
          data,
        };
      },
    }),
  }));
}

for (const kind of ['adCopy', 'headline', 'landingPage'] as const) evolutionField(kind);
