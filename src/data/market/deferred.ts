import type { Queryable } from '../bulk.js';

// Around a large load, the market tables are filled bare: their foreign keys, primary keys, unique and
// secondary indexes are dropped first and re-created from their own definitions once the rows are in (an
// index built in one sort, a key validated in one join, instead of row by row). Everything happens inside
// the load's transaction, so a failure (a duplicate key, a dangling reference) rolls the whole load back.
// On a partitioned table (the history tables, migration 0037) the parent's keys and indexes are the ones dropped and
// re-created, which PostgreSQL does on every partition: the partitions' own copies (conparentid set) are left to it,
// and the parent's index is re-created on the whole table, not `ON ONLY` the parent as pg_get_indexdef prints it.

type Structure = {
  /** Foreign keys from or to the market tables. */
  foreignKeys: { table: string; name: string; definition: string }[];
  /** Primary keys and unique constraints of the market tables. */
  keys: { table: string; name: string; definition: string }[];
  /** Every other index of the market tables (unique ones included). */
  indexes: { name: string; definition: string }[];
};

export async function readStructure(client: Queryable, tables: readonly string[]): Promise<Structure> {
  const constraints = await client.query<{ table: string; name: string; definition: string; type: string }>(
    `SELECT quote_ident(t.relname) AS table, quote_ident(k.conname) AS name, pg_get_constraintdef(k.oid) AS definition, k.contype AS type
     FROM pg_constraint k
     JOIN pg_class t ON t.oid = k.conrelid
     JOIN pg_namespace n ON n.oid = t.relnamespace
     LEFT JOIN pg_class r ON r.oid = k.confrelid
     WHERE n.nspname = current_schema() AND k.contype IN ('f', 'p', 'u') AND k.conparentid = 0
       AND (t.relname = ANY($1::text[]) OR (k.contype = 'f' AND r.relname = ANY($1::text[])))
     ORDER BY t.relname, k.conname`,
    [tables],
  );
  const indexes = await client.query<{ name: string; definition: string }>(
    `SELECT quote_ident(n.nspname) || '.' || quote_ident(c.relname) AS name, pg_get_indexdef(i.indexrelid) AS definition
     FROM pg_index i
     JOIN pg_class c ON c.oid = i.indexrelid
     JOIN pg_class t ON t.oid = i.indrelid
     JOIN pg_namespace n ON n.oid = t.relnamespace
     WHERE n.nspname = current_schema() AND t.relname = ANY($1::text[])
       AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = i.indexrelid)
     ORDER BY t.relname, c.relname`,
    [tables],
  );
  return {
    foreignKeys: constraints.rows.filter((row) => row.type === 'f'),
    keys: constraints.rows.filter((row) => row.type !== 'f'),
    indexes: indexes.rows.map((index) => ({ ...index, definition: index.definition.replace(/ ON ONLY /, ' ON ') })),
  };
}

export async function dropStructure(client: Queryable, { foreignKeys, keys, indexes }: Structure): Promise<void> {
  for (const key of foreignKeys) await client.query(`ALTER TABLE ${key.table} DROP CONSTRAINT ${key.name}`);
  for (const key of keys) await client.query(`ALTER TABLE ${key.table} DROP CONSTRAINT ${key.name}`);
  for (const index of indexes) await client.query(`DROP INDEX ${index.name}`);
}

export async function restoreStructure(client: Queryable, { foreignKeys, keys, indexes }: Structure): Promise<void> {
  await client.query(`SET LOCAL maintenance_work_mem = '256MB'`);
  for (const key of keys) await client.query(`ALTER TABLE ${key.table} ADD CONSTRAINT ${key.name} ${key.definition}`);
  for (const index of indexes) await client.query(index.definition);
  for (const key of foreignKeys) await client.query(`ALTER TABLE ${key.table} ADD CONSTRAINT ${key.name} ${key.definition}`);
}
