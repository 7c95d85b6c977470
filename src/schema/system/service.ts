import type { Context } from '../../context.js';
import { DAY_MS } from '../shared/time.js';

// The system domain's public face and the home of its SQL: the freshness of the stored reach history
// (GET /v1/system/freshness). GET /v1 and GET /health read no table.

/** The global reach-history snapshot dates actually stored, and how many whole UTC days the ready one lags today. */
export async function systemFreshness(context: Context) {
  const [row] = await context.prisma.$queryRaw<{ ready: Date | null; scheduled: Date | null }[]>`
        SELECT max("date") FILTER (WHERE "reach" > 0) AS ready, max("date") AS scheduled FROM "ad_reach_days"`;
  const generatedAt = new Date();
  const today = Date.UTC(generatedAt.getUTCFullYear(), generatedAt.getUTCMonth(), generatedAt.getUTCDate());
  return {
    status: 'ok',
    data: {
      latestReadyDate: row.ready,
      latestScheduledDate: row.scheduled,
      dataFreshnessLagDays: row.ready ? Math.round((today - row.ready.getTime()) / DAY_MS) : null,
      generatedAt,
    },
  };
}
