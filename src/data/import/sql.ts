import type pg from 'pg';
import { arrayLiteral } from '../bulk.js';

// Set-based upserts for the importers: every column travels as one array parameter and `unnest` turns the
// arrays back into rows (one statement per table and file, the same on PostgreSQL and PGlite). A conflicting
// row is updated only when one of its values differs, so importing the same data twice writes nothing.

export type Column = { name: string; type: string };

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;
const isArray = (type: string) => type.endsWith('[]');

function encode(value: unknown, type: string): unknown {
  if (value === null || value === undefined) return null;
  if (isArray(type)) return arrayLiteral(value as string[]);
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof Date) return type === 'date' ? value.toISOString().slice(0, 10) : value.toISOString();
  return value;
}

export type UpsertSpec = {
  table: string;
  columns: Column[];
  /** The conflict target (the primary key). */
  key: string[];
  /** Columns rewritten on conflict; the row is touched only when one of them differs. */
  update: string[];
  /** Extra assignments made only when the row changes (`"updatedAt" = excluded."updatedAt"`). */
  alsoOnChange?: string[];
  /** Overrides of the inserted value (`handle` → a SQL expression over `u.<column>`). */
  insertAs?: Record<string, string>;
  /** Columns written on insert only, as SQL expressions that take no value (`"firstFetchedAt"` → `now()`). */
  insertOnly?: Record<string, string>;
  returning: string;
  /**
   * The rows are known to be new (the batch looked their keys up under the import lock and found none): a plain
   * INSERT, without the cost of a conflict check per row. A key stored after all fails the batch.
   */
  allNew?: boolean;
};

/** Inserts `rows` or updates the rows that differ; returns the rows inserted or changed (`RETURNING`). */
export async function upsert<R extends pg.QueryResultRow>(client: pg.PoolClient, spec: UpsertSpec, rows: unknown[][]): Promise<R[]> {
  if (rows.length === 0) return [];
  const { table, columns } = spec;
  const params = columns.map((column, c) => rows.map((row) => encode(row[c], column.type)));
  const unnest = columns.map((column, i) => `$${i + 1}::${isArray(column.type) ? 'text' : column.type}[]`).join(', ');
  const extra = Object.entries(spec.insertOnly ?? {});
  const select = [
    ...columns.map((column) => spec.insertAs?.[column.name] ?? (isArray(column.type) ? `u.${quote(column.name)}::${column.type}` : `u.${quote(column.name)}`)),
    ...extra.map(([, expression]) => expression),
  ].join(', ');
  const names = columns.map((column) => quote(column.name)).join(', ');
  const targets = [names, ...extra.map(([name]) => quote(name))].join(', ');
  const assignments = [...spec.update.map((name) => `${quote(name)} = excluded.${quote(name)}`), ...(spec.alsoOnChange ?? [])];
  const current = spec.update.map((name) => `t.${quote(name)}`).join(', ');
  const incoming = spec.update.map((name) => `excluded.${quote(name)}`).join(', ');
  const conflict = spec.update.length
    ? `DO UPDATE SET ${assignments.join(', ')} WHERE (${current}) IS DISTINCT FROM (${incoming})`
    : 'DO NOTHING';
  const text =
    `INSERT INTO ${quote(table)} AS t (${targets}) SELECT ${select} FROM unnest(${unnest}) AS u(${names}) ` +
    (spec.allNew ? '' : `ON CONFLICT (${spec.key.map(quote).join(', ')}) ${conflict} `) +
    `RETURNING ${spec.returning}`;
  return (await client.query<R>(text, params)).rows;
}
