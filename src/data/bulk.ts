import type pg from 'pg';

// One parameterised statement per batch: each column travels as one array parameter and `unnest` turns the
// arrays back into rows. A single statement per batch works the same on PostgreSQL and on PGlite's socket.

export type BulkColumn = {
  name: string;
  /** A PostgreSQL type: `text`, `int4`, `int8`, `float8`, `bool`, `uuid`, `date`, `timestamptz`, `jsonb`, an enum (`"AdStatus"`) or an array type such as `text[]`. */
  type: string;
};

/** A pool or one checked-out client (to insert inside a transaction). */
export type Queryable = pg.Pool | pg.PoolClient;

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** A PostgreSQL array literal of text elements, for array columns (unnest cannot split a 2-D array into 1-D rows). */
export function arrayLiteral(values: readonly (string | number | boolean | null)[]): string {
  const items = values.map((value) =>
    value === null ? 'NULL' : `"${String(value).replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`,
  );
  return `{${items.join(',')}}`;
}

function isArrayType(type: string): boolean {
  return type.trim().endsWith('[]');
}

function isJsonType(type: string): boolean {
  return /^jsonb?$/i.test(type.trim());
}

function encode(value: unknown, type: string): unknown {
  if (value === null || value === undefined) return null;
  if (isArrayType(type)) {
    if (typeof value === 'string') return value;
    if (Array.isArray(value)) return arrayLiteral(value as (string | number | boolean | null)[]);
    throw new Error(`bulkInsert: column of type ${type} needs an array or an array literal`);
  }
  if (isJsonType(type)) return JSON.stringify(value);
  if (typeof value === 'bigint') return value.toString();
  // pg renders a Date in the process's time zone, which shifts a `date` column east of UTC.
  if (value instanceof Date) return type.trim() === 'date' ? value.toISOString().slice(0, 10) : value.toISOString();
  return value;
}

/** The statement for one batch; exported for tests and for callers that stream batches themselves. */
export function bulkInsertSql(table: string, columns: readonly BulkColumn[]): string {
  const names = columns.map((column) => quoteIdent(column.name));
  const params = columns.map((column, i) => {
    const elementType = isArrayType(column.type) || isJsonType(column.type) ? 'text' : column.type;
    return `$${i + 1}::${elementType}[]`;
  });
  const select = columns.map((column, i) =>
    isArrayType(column.type) || isJsonType(column.type) ? `u.c${i}::${column.type}` : `u.c${i}`,
  );
  const aliases = columns.map((_, i) => `c${i}`).join(', ');
  return (
    `INSERT INTO ${quoteIdent(table)} (${names.join(', ')}) ` +
    `SELECT ${select.join(', ')} FROM unnest(${params.join(', ')}) AS u(${aliases})`
  );
}

/** The parameters of one batch statement: one array per column, each value encoded for its column type. */
export function bulkInsertParams(columns: readonly BulkColumn[], rows: readonly (readonly unknown[])[]): unknown[][] {
  return columns.map((column, c) => rows.map((row) => encode(row[c], column.type)));
}

/**
 * Inserts `rows` (each in `columns` order) into `table`, `batchSize` rows per statement.
 * Array columns take JS arrays (or ready-made literals), JSON columns take any JSON-serialisable value.
 * Returns the number of rows inserted.
 */
export async function bulkInsert(
  pool: Queryable,
  table: string,
  columns: readonly BulkColumn[],
  rows: readonly (readonly unknown[])[],
  batchSize = 5000,
  onBatch?: (done: number) => void,
): Promise<number> {
  const sql = bulkInsertSql(table, columns);
  let done = 0;
  for (let start = 0; start < rows.length; start += batchSize) {
    const batch = rows.slice(start, start + batchSize);
    await pool.query(sql, bulkInsertParams(columns, batch));
    done += batch.length;
    onBatch?.(done);
  }
  return done;
}

/** One value in COPY's text format: `\N` for null, backslash escapes for the characters that delimit rows and columns. */
function copyText(value: unknown, type: string): string {
  const encoded = encode(value, type);
  if (encoded === null) return '\\N';
  const text = typeof encoded === 'boolean' ? (encoded ? 't' : 'f') : String(encoded);
  return /[\\\t\n\r]/.test(text) ? text.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n').replace(/\r/g, '\\r') : text;
}

/** The `COPY … FROM STDIN` statement for `table`'s `columns` (text format). */
export function copySql(table: string, columns: readonly BulkColumn[]): string {
  return `COPY ${quoteIdent(table)} (${columns.map((column) => quoteIdent(column.name)).join(', ')}) FROM STDIN`;
}

/** Rows in COPY's text format, one line per row; each value encoded for its column type as bulkInsertParams does. */
export function copyRows(columns: readonly BulkColumn[], rows: readonly (readonly unknown[])[]): string {
  let out = '';
  for (const row of rows) {
    for (let c = 0; c < columns.length; c++) out += (c === 0 ? '' : '\t') + copyText(row[c], columns[c].type);
    out += '\n';
  }
  return out;
}
