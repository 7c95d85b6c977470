import os from 'node:os';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { HISTORY_TABLES } from '../../src/db/partitions.js';

// `npm run bench:capacity [-- --scale medium]` (or `--url postgresql://…`): the measurements the README's capacity model
// is written from, read from a seeded bench database (npm run bench -- --scales medium --seed-only) without changing it.
//   - each table: its rows (the planner's count after the seed's ANALYZE; a partitioned table's is its partitions'),
//     its bytes with indexes and TOAST (pg_total_relation_size; a partitioned table's, its partitions'), bytes a row;
//   - the day-snapshot tables (the history, partitioned by month): their days, rows a day, and rows and bytes a day per
//     page (advertiser, the brand a brandtracker follows) and per ad;
//   - the whole database.
// Prints Markdown; the committed outputs are in test/bench/baselines/*capacity*.

const { values: opts } = parseArgs({ options: { scale: { type: 'string', default: 'medium' }, url: { type: 'string' } } });
const url = opts.url ?? `postgresql://postgres@127.0.0.1:5432/mi_bench_${opts.scale}`;

type TableRow = { name: string; partitioned: boolean; rows: number; bytes: number };
type HistoryRow = { table: string; days: number; first: string | null; last: string | null; lastDayRows: number };

const MB = 1_048_576;
const fmt = (value: number, digits = 0) => value.toLocaleString('en', { maximumFractionDigits: digits, minimumFractionDigits: digits });

async function main() {
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  try {
    const started = new Date();
    const { rows: [database] } = await pool.query<{ name: string; bytes: string; mark: string | null; version: string }>(
      `SELECT current_database() AS name, pg_database_size(current_database())::text AS bytes,
              shobj_description((SELECT oid FROM pg_database WHERE datname = current_database()), 'pg_database') AS mark,
              current_setting('server_version') AS version`);
    // Leaf tables are summed into their partitioned parent; plain tables stand for themselves (partitions are not listed).
    const { rows: tables } = await pool.query<{ name: string; partitioned: boolean; rows: string; bytes: string }>(
      `WITH leaf AS (
         SELECT coalesce(p.relname, c.relname) AS name, p.oid IS NOT NULL AS partitioned, greatest(c.reltuples, 0) AS rows,
                pg_total_relation_size(c.oid) AS bytes
         FROM pg_class c
         LEFT JOIN pg_inherits i ON i.inhrelid = c.oid
         LEFT JOIN pg_class p ON p.oid = i.inhparent AND p.relkind = 'p'
         WHERE c.relkind = 'r' AND c.relnamespace = 'public'::regnamespace)
       SELECT name, bool_or(partitioned) AS partitioned, sum(rows)::bigint::text AS rows, sum(bytes)::bigint::text AS bytes
       FROM leaf GROUP BY name ORDER BY sum(bytes) DESC`);
    const byName = new Map<string, TableRow>(tables.map((t) => [t.name, { name: t.name, partitioned: t.partitioned, rows: Number(t.rows), bytes: Number(t.bytes) }]));
    const count = async (sql: string) => Number((await pool.query<{ n: string }>(sql)).rows[0]!.n);
    const advertisers = await count(`SELECT count(*)::text AS n FROM "advertisers"`);
    const ads = await count(`SELECT count(*)::text AS n FROM "ads"`);
    const brandtrackers = await count(`SELECT count(*)::text AS n FROM "brandtrackers"`);
    const liveAds = await count(`SELECT count(*)::text AS n FROM "ads" WHERE "status" = 'active'`);
    const history: HistoryRow[] = [];
    for (const table of HISTORY_TABLES) {
      // min and max from the date's or the key's index; the days between them, the generator's window (every day has rows).
      const { rows: [span] } = await pool.query<{ first: string | null; last: string | null }>(
        `SELECT to_char(min("date"), 'YYYY-MM-DD') AS first, to_char(max("date"), 'YYYY-MM-DD') AS last FROM "${table}"`);
      const days = span.first && span.last ? (Date.parse(span.last) - Date.parse(span.first)) / 86_400_000 + 1 : 0;
      // The last day's rows: what a day adds now (the generator's market grows over its window; a sync writes a row per live subject).
      const lastDayRows = span.last ? await count(`SELECT count(*)::text AS n FROM "${table}" WHERE "date" = DATE '${span.last}'`) : 0;
      history.push({ table, days, ...span, lastDayRows });
    }

    const total = tables.reduce((sum, t) => sum + Number(t.bytes), 0);
    const lines: string[] = [];
    lines.push(`Capacity measurements of ${database.name} (${database.mark ?? 'no seed mark'}), PostgreSQL ${database.version}, ${started.toISOString()}, load average ${os.loadavg()[0]!.toFixed(2)}`);
    lines.push('');
    lines.push(`Market: ${fmt(ads)} ads (${fmt(liveAds)} live), ${fmt(advertisers)} pages (advertisers), ${fmt(brandtrackers)} brandtrackers. Database ${fmt(Number(database.bytes) / MB)} MB (pg_database_size), tables with indexes ${fmt(total / MB)} MB.`);
    lines.push('');
    lines.push('| table | rows | MB (with indexes, TOAST) | bytes/row | share of the database |');
    lines.push('|---|---|---|---|---|');
    for (const t of byName.values()) {
      if (t.bytes < 1 * MB && t.rows < 1000) continue;
      lines.push(`| ${t.name}${t.partitioned ? ' (partitioned)' : ''} | ${fmt(t.rows)} | ${fmt(t.bytes / MB, 1)} | ${t.rows ? fmt(t.bytes / t.rows) : '–'} | ${fmt((100 * t.bytes) / total, 1)}% |`);
    }
    lines.push('');
    lines.push('Day-snapshot (history) tables: what a day adds.');
    lines.push('');
    lines.push('| table | days | first → last | rows/day (mean) | rows on the last day | bytes/row | MB/day (mean) | rows/day per page | bytes/day per page | rows/day per ad |');
    lines.push('|---|---|---|---|---|---|---|---|---|---|');
    let dailyBytes = 0;
    let dailyRows = 0;
    for (const h of history) {
      const t = byName.get(h.table)!;
      const rowsPerDay = h.days ? t.rows / h.days : 0;
      const bytesPerDay = h.days ? t.bytes / h.days : 0;
      dailyBytes += bytesPerDay;
      dailyRows += rowsPerDay;
      lines.push(`| ${h.table} | ${h.days} | ${h.first ?? '–'} → ${h.last ?? '–'} | ${fmt(rowsPerDay)} | ${fmt(h.lastDayRows)} | ${t.rows ? fmt(t.bytes / t.rows) : '–'} | ${fmt(bytesPerDay / MB, 2)} | ${fmt(rowsPerDay / advertisers, 2)} | ${fmt(bytesPerDay / advertisers)} | ${fmt(rowsPerDay / ads, 3)} |`);
    }
    lines.push(`| all five | | | ${fmt(dailyRows)} | ${fmt(history.reduce((sum, h) => sum + h.lastDayRows, 0))} | | ${fmt(dailyBytes / MB, 2)} | ${fmt(dailyRows / advertisers, 2)} | ${fmt(dailyBytes / advertisers)} | ${fmt(dailyRows / ads, 3)} |`);
    const historyBytes = history.reduce((sum, h) => sum + byName.get(h.table)!.bytes, 0);
    lines.push('');
    lines.push(`History: ${fmt(historyBytes / MB)} MB, ${fmt((100 * historyBytes) / total, 1)}% of the tables; the rest (the market as it stands: ads, pages, shops, products, emails, TikTok, Google) ${fmt((total - historyBytes) / MB)} MB, ${fmt((total - historyBytes) / ads)} bytes per ad.`);
    const lastDayBytes = history.reduce((sum, h) => { const t = byName.get(h.table)!; return sum + (t.rows ? (h.lastDayRows * t.bytes) / t.rows : 0); }, 0);
    const lastDayRows = history.reduce((sum, h) => sum + h.lastDayRows, 0);
    lines.push(`A year of history at this market's size: ${fmt((dailyBytes * 365) / MB / 1024, 1)} GB (${fmt(dailyRows * 365 / 1e6, 1)} M rows) at the window's mean rate; ` +
      `${fmt((lastDayBytes * 365) / MB / 1024, 1)} GB (${fmt(lastDayRows * 365 / 1e6, 1)} M rows) at the last day's (${fmt(lastDayBytes / MB, 1)} MB a day: ${fmt(lastDayBytes / liveAds)} bytes a day per live ad, ${fmt(lastDayBytes / advertisers)} per page).`);
    console.log(lines.join('\n'));
  } finally {
    await pool.end();
  }
}

await main();
