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

type FreshnessData = { latestReadyDate: Date | null; latestScheduledDate: Date | null; dataFreshnessLagDays: number | null; generatedAt: Date };

const FreshnessDataRef = builder.objectRef<FreshnessData>('FreshnessData').implement({
  fields: (t) => ({
    latestReadyDate: t.expose('latestReadyDate', { type: 'Date', nullable: true, description: 'Latest snapshot date with usable reach rows.' }),
    latestScheduledDate: t.expose('latestScheduledDate', { type: 'Date', nullable: true, description: 'Latest snapshot date present in reach history, ready or not.' }),
    dataFreshnessLagDays: t.exposeInt('dataFreshnessLagDays', { nullable: true, description: 'Whole UTC days between today and latestReadyDate.' }),
    generatedAt: t.expose('generatedAt', { type: 'DateTime' }),
  }),
});

export const Freshness = builder.objectRef<{ status: string; data: FreshnessData }>('Freshness').implement({
  fields: (t) => ({ status: t.exposeString('status'), data: t.expose('data', { type: FreshnessDataRef }) }),
});
