import { z } from 'zod';
import { validationError } from '../../errors.js';
import { builder } from '../builder.js';
import { DAY_MS } from '../shared/time.js';
import { SeriesGranularity } from './enums.js';
import { seriesDays, type CountPoint, type DateRange, type Frame, type ImpressionsPoint, type SeriesPeriod, type TimeSeries } from './service.js';

// The brand's daily series as GET /brandtrackers/{id}/time-series answers it and the overview's graph shows it (the
// statement is service/series.ts), and the range they cover: a rolling period or explicit dates.

/** The longest series: 366 days, the default range (the end day and the 365 days before it). */
export const MAX_SERIES_DAYS = 366;

export const DateRangeRef = builder.objectRef<DateRange>('BrandtrackerDateRange').implement({
  description: 'Inclusive UTC days.',
  fields: (t) => ({ startDate: t.expose('startDate', { type: 'Date' }), endDate: t.expose('endDate', { type: 'Date' }) }),
});

const CountPointRef = builder.objectRef<CountPoint>('BrandtrackerCountPoint').implement({
  description: "One bucket: `date` is its first day within the series' range.",
  fields: (t) => ({ date: t.expose('date', { type: 'Date' }), count: t.exposeInt('count') }),
});

const ImpressionsPointRef = builder.objectRef<ImpressionsPoint>('BrandtrackerImpressionsSpendPoint').implement({
  description: "One bucket of the reach history (EU reach, Meta's impressions-style figure): `date` is its first day within the range.",
  fields: (t) => ({
    date: t.expose('date', { type: 'Date' }),
    impressions: t.expose('impressions', { type: 'SafeInt', description: "Reach gained in the bucket: the daily increments of the ads' cumulative reach (an ad whose history starts after its launch day adds nothing on its first recorded day)." }),
    cumulativeImpressions: t.expose('cumulativeImpressions', { type: 'SafeInt', description: "The ads' latest cumulative reach on the bucket's last day." }),
    estimatedSpend: t.expose('estimatedSpend', { type: 'SafeInt', description: 'round(impressions × cpm / 1000).' }),
  }),
});

export const TimeSeriesRef = builder.objectRef<TimeSeries>('BrandtrackerTimeSeries').implement({
  description: "The brand's ads over days. Every ad counts (duplicates included); with euOnly only EU ads count, in every series.",
  fields: (t) => ({
    granularity: t.field({ type: SeriesGranularity, resolve: (series) => series.granularity }),
    dateRange: t.field({ type: DateRangeRef, resolve: (series) => series.dateRange }),
    adsLaunched: t.field({ type: [CountPointRef], description: 'Ads first seen in the bucket.', resolve: (series) => series.adsLaunched }),
    liveAds: t.field({ type: [CountPointRef], description: 'Ads live on at least one day of the bucket (first seen on or before its last day, last seen on or after its first; an active ad is live to the end).', resolve: (series) => series.liveAds }),
    euImpressionsSpend: t.field({ type: [ImpressionsPointRef], resolve: (series) => series.euImpressionsSpend }),
    cpm: t.exposeFloat('cpm'),
  }),
});

/** The argument names of a series range: time-series says period/startDate/endDate, overview timeSeries…. */
export type RangeNames = { period: string; startDate: string; endDate: string };
export type RangeArgs = { period?: SeriesPeriod | null; startDate?: Date | null; endDate?: Date | null };

/** A rolling period or explicit dates, never both; endDate never with snapshotDate (which is then the end). */
export function seriesRangeRule(names: RangeNames) {
  return z.looseObject({}).superRefine((raw, ctx) => {
    const args = raw as Record<string, unknown>;
    const given = (name: string) => args[name] != null;
    if (given(names.period) && (given(names.startDate) || given(names.endDate))) {
      ctx.addIssue({ code: 'custom', path: [names.period], message: `{name} cannot be combined with ${names.startDate} or ${names.endDate}` });
    }
    if (given(names.endDate) && given('snapshotDate')) {
      ctx.addIssue({ code: 'custom', path: [names.endDate], message: '{name} cannot be combined with snapshotDate (snapshotDate is then the end date)' });
    }
  });
}

/**
 * The days a series covers: the period ending on the frame's day, or startDate..endDate (endDate defaults to the
 * frame's day: today, or the snapshot day; startDate to 365 days before the end). A 400 names the bad bound.
 */
export function seriesRange(frame: Frame, args: RangeArgs, names: RangeNames): { start: Date; end: Date } {
  if (args.period) return seriesDays(frame, args.period);
  const end = args.endDate ?? frame.day;
  const start = args.startDate ?? new Date(end.getTime() - (MAX_SERIES_DAYS - 1) * DAY_MS);
  if (start > end) throw validationError([{ argument: names.startDate, expected: [`${names.startDate} must be on or before ${names.endDate} (${iso(end)})`] }]);
  if ((end.getTime() - start.getTime()) / DAY_MS + 1 > MAX_SERIES_DAYS) {
    throw validationError([{ argument: names.startDate, expected: [`${names.startDate} must be at most ${MAX_SERIES_DAYS - 1} days before ${names.endDate} (${iso(end)})`] }]);
  }
  return { start, end };
}

const iso = (day: Date) => day.toISOString().slice(0, 10);

