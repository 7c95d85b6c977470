import type { Context } from '../../context.js';
import { latestHistoryDay } from '../../db/partitions.js';
import { Prisma } from '../../generated/prisma/client.js';
import { sourceStatuses } from '../../sources/index.js';
import { DAY_MS } from '../shared/time.js';

// The system domain's public face and the home of its SQL: the freshness of the market (GET /v1/system/freshness).
// With collection running, the dates come from the runs: the global ones from the Meta Ad Library runs (the reach
// history the specification means) once one has succeeded, one entry per source in `sources`. Before that (the demo
// market, file imports only, failed runs) the global dates are the reach-history snapshot dates stored. GET /v1 and GET /health read no table.

const lagDays = (today: number, date: Date | null) => (date ? Math.round((today - date.getTime()) / DAY_MS) : null);

export async function systemFreshness(context: Context) {
  const generatedAt = new Date();
  const today = Date.UTC(generatedAt.getUTCFullYear(), generatedAt.getUTCMonth(), generatedAt.getUTCDate());
  const statuses = await sourceStatuses(context.pool);
  const sources = statuses.map((status) => ({
    source: status.source,
    latestReadyDate: status.latestReadyDate,
    latestScheduledDate: status.latestScheduledDate,
    dataFreshnessLagDays: lagDays(today, status.latestReadyDate),
    lastSucceededAt: status.lastSucceededAt,
    lastRunStatus: status.lastRun?.status ?? null,
    running: status.running,
  }));
  // Until a Meta run has succeeded, the stored snapshots (imports, the demo market) say more than a failed run.
  const meta = sources.find((source) => source.source === 'meta-ads' && source.latestReadyDate !== null);
  let ready: Date | null;
  let scheduled: Date | null;
  if (meta) {
    ready = meta.latestReadyDate;
    scheduled = meta.latestScheduledDate;
  } else {
    const [row] = await context.prisma.$queryRaw<{ ready: Date | null; scheduled: Date | null }[]>`
        SELECT ${latestHistoryDay('ad_reach_days', Prisma.sql`"reach" > 0`)} AS ready, ${latestHistoryDay('ad_reach_days')} AS scheduled`;
    ({ ready, scheduled } = row);
  }
  return {
    status: 'ok',
    data: {
      latestReadyDate: ready,
      latestScheduledDate: scheduled,
      dataFreshnessLagDays: lagDays(today, ready),
      generatedAt,
      sources,
    },
  };
}
