import { builder } from '../builder.js';

export const ApiInfo = builder.objectRef<{ name: string; version: string; status: string }>('ApiInfo').implement({
  fields: (t) => ({ name: t.exposeString('name'), version: t.exposeString('version'), status: t.exposeString('status') }),
});

export const Health = builder.objectRef<{ status: string; timestamp: Date; uptime: number }>('Health').implement({
  fields: (t) => ({
    status: t.exposeString('status'),
    timestamp: t.expose('timestamp', { type: 'DateTime' }),
    uptime: t.exposeFloat('uptime', { description: 'Process uptime in seconds.' }),
  }),
});

type SourceFreshness = {
  source: string;
  latestReadyDate: Date | null;
  latestScheduledDate: Date | null;
  dataFreshnessLagDays: number | null;
  lastSucceededAt: Date | null;
  lastRunStatus: string | null;
  running: boolean;
};

type FreshnessData = {
  latestReadyDate: Date | null;
  latestScheduledDate: Date | null;
  dataFreshnessLagDays: number | null;
  generatedAt: Date;
  sources: SourceFreshness[];
};

const SourceFreshnessRef = builder.objectRef<SourceFreshness>('SourceFreshness').implement({
  description: 'The freshness of one collected source, from its runs.',
  fields: (t) => ({
    source: t.exposeString('source', { description: 'meta-ads, tiktok-ads or shopify.' }),
    latestReadyDate: t.expose('latestReadyDate', { type: 'Date', nullable: true, description: 'The day the latest succeeded run stands for.' }),
    latestScheduledDate: t.expose('latestScheduledDate', { type: 'Date', nullable: true, description: 'The day the latest started run stands for, finished or not.' }),
    dataFreshnessLagDays: t.exposeInt('dataFreshnessLagDays', { nullable: true, description: 'Whole UTC days between today and latestReadyDate.' }),
    lastSucceededAt: t.expose('lastSucceededAt', { type: 'DateTime', nullable: true }),
    lastRunStatus: t.exposeString('lastRunStatus', { nullable: true, description: 'running, succeeded, failed or interrupted.' }),
    running: t.exposeBoolean('running'),
  }),
});

const FreshnessDataRef = builder.objectRef<FreshnessData>('FreshnessData').implement({
  fields: (t) => ({
    latestReadyDate: t.expose('latestReadyDate', { type: 'Date', nullable: true, description: 'Latest snapshot date with usable reach rows (from the Meta Ad Library runs once collection has run).' }),
    latestScheduledDate: t.expose('latestScheduledDate', { type: 'Date', nullable: true, description: 'Latest snapshot date present in reach history, ready or not.' }),
    dataFreshnessLagDays: t.exposeInt('dataFreshnessLagDays', { nullable: true, description: 'Whole UTC days between today and latestReadyDate.' }),
    generatedAt: t.expose('generatedAt', { type: 'DateTime' }),
    sources: t.expose('sources', {
      type: [SourceFreshnessRef],
      description: 'Additive: one entry per collected source, from its runs (empty until a source has run).',
    }),
  }),
});

export const Freshness = builder.objectRef<{ status: string; data: FreshnessData }>('Freshness').implement({
  fields: (t) => ({ status: t.exposeString('status'), data: t.expose('data', { type: FreshnessDataRef }) }),
});
