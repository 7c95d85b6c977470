import type pg from 'pg';

// What the runs say about each source: its freshness (the day of its last finished run, the day of its latest
// started one) and its totals, for `sync status`, GET /v1/system/freshness and the Prometheus metrics. One
// statement over `sync_runs`, grouped by source.

export type SourceStatus = {
  source: string;
  /** The day (UTC) the latest succeeded run stands for. */
  latestReadyDate: Date | null;
  /** The day the latest started run stands for (running, stopped or done). */
  latestScheduledDate: Date | null;
  lastSucceededAt: Date | null;
  lastRun: { id: string; status: string; startedAt: Date; finishedAt: Date | null; error: string | null } | null;
  running: boolean;
  runs: Record<'running' | 'succeeded' | 'failed' | 'interrupted', number>;
  rows: { fetched: number; inserted: number; updated: number; unchanged: number; skipped: number };
  waits: number;
};

type Row = {
  source: string;
  ready: string | null;
  scheduled: string | null;
  succeededAt: Date | null;
  running: number;
  succeeded: number;
  failed: number;
  interrupted: number;
  fetched: string;
  inserted: string;
  updated: string;
  unchanged: string;
  skipped: string;
  waits: string;
  last: { id: string; status: string; startedAt: string; finishedAt: string | null; error: string | null } | null;
};

const day = (text: string | null) => (text ? new Date(`${text}T00:00:00Z`) : null);

export async function sourceStatuses(pool: pg.Pool): Promise<SourceStatus[]> {
  const { rows } = await pool.query<Row>(
    `SELECT "source",
            to_char(max("asOf") FILTER (WHERE "status" = 'succeeded') AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS ready,
            to_char(max("asOf") AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS scheduled,
            max("finishedAt") FILTER (WHERE "status" = 'succeeded') AS "succeededAt",
            count(*) FILTER (WHERE "status" = 'running')::int AS running,
            count(*) FILTER (WHERE "status" = 'succeeded')::int AS succeeded,
            count(*) FILTER (WHERE "status" = 'failed')::int AS failed,
            count(*) FILTER (WHERE "status" = 'interrupted')::int AS interrupted,
            sum("fetched") AS fetched, sum("inserted") AS inserted, sum("updated") AS updated,
            sum("unchanged") AS unchanged, sum("skipped") AS skipped, sum("waits") AS waits,
            (SELECT json_build_object('id', l."id", 'status', l."status", 'startedAt', l."startedAt", 'finishedAt', l."finishedAt", 'error', l."error")
               FROM "sync_runs" l WHERE l."source" = r."source" ORDER BY l."startedAt" DESC LIMIT 1) AS last
     FROM "sync_runs" r GROUP BY "source" ORDER BY "source"`,
  );
  return rows.map((row) => ({
    source: row.source,
    latestReadyDate: day(row.ready),
    latestScheduledDate: day(row.scheduled),
    lastSucceededAt: row.succeededAt,
    lastRun: row.last && {
      ...row.last,
      startedAt: new Date(row.last.startedAt),
      finishedAt: row.last.finishedAt ? new Date(row.last.finishedAt) : null,
    },
    running: row.running > 0,
    runs: { running: row.running, succeeded: row.succeeded, failed: row.failed, interrupted: row.interrupted },
    rows: { fetched: Number(row.fetched), inserted: Number(row.inserted), updated: Number(row.updated), unchanged: Number(row.unchanged), skipped: Number(row.skipped) },
    waits: Number(row.waits),
  }));
}
