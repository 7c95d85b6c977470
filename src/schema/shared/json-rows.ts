import { isDeepStrictEqual } from 'node:util';
import { Prisma } from '../../generated/prisma/client.js';
import { getDatamodel } from '../../generated/pothos-types.js';

// Rows by id for the lists that find a page of ids and then load them. Prisma's findMany maps each value of each
// row in JavaScript, which for a page of rows with their relations cost more of Node's time than the rest of the
// request. When the request selects no more than what an object type includes (`include`, declared once and used
// by the type and by its loader), one statement has PostgreSQL write the rows as JSON, which is parsed at once and
// given Prisma's types back (DateTime as Date, BigInt as bigint, Decimal as Prisma.Decimal, a NULL list as []).
// Any other selection is Prisma's. Columns come from the Prisma datamodel, so a field added to the schema is loaded
// without touching a loader; each loader's test compares both paths row for row.

const sql = Prisma.sql;

type ModelField = {
  readonly name: string;
  readonly kind: string;
  readonly type: string;
  readonly isList: boolean;
};

const models = getDatamodel().datamodel.models as Record<string, { fields: readonly ModelField[] }>;

function fieldsOf(model: string, names?: readonly string[]): ModelField[] {
  const scalars = models[model].fields.filter((field) => field.kind === 'scalar' || field.kind === 'enum');
  if (!names) return scalars;
  return names.map((name) => {
    const field = scalars.find((scalar) => scalar.name === name);
    if (!field) throw new Error(`${model}.${name} is not a scalar field`);
    return field;
  });
}

/** BigInt and Decimal travel as text: a JSON number would lose their digits. */
const asText = (field: ModelField) => field.type === 'BigInt' || field.type === 'Decimal';
const value = (field: ModelField, alias: string) => `${alias}."${field.name}"${asText(field) ? '::text' : ''}`;

/** The fields as one JSON object (json_build_object takes at most 100 arguments: 50 fields). */
function jsonObject(model: string, fields: ModelField[], alias: string): string {
  if (fields.length > 50) throw new Error(`${model}: too many fields for json_build_object`);
  return `json_build_object(${fields.map((field) => `'${field.name}', ${value(field, alias)}`).join(', ')})`;
}

type Revive = (row: Record<string, unknown>) => void;

/** Turns the JSON values of a row back into Prisma's types, in place. */
function reviver(model: string, fields: ModelField[]): Revive {
  const named = (keep: (field: ModelField) => boolean) => fields.filter(keep).map((field) => field.name);
  const dates = named((field) => field.type === 'DateTime' && !field.isList);
  const bigints = named((field) => field.type === 'BigInt' && !field.isList);
  const decimals = named((field) => field.type === 'Decimal' && !field.isList);
  const lists = named((field) => field.isList);
  const listOf = ['DateTime', 'BigInt', 'Decimal', 'Bytes'];
  if (fields.some((field) => field.type === 'Bytes' || (field.isList && listOf.includes(field.type)))) {
    throw new Error(`${model}: bytes and lists of dates, bigints or decimals are not revived`);
  }
  return (row) => {
    for (const name of dates) if (row[name] != null) row[name] = new Date(row[name] as string);
    for (const name of bigints) if (row[name] != null) row[name] = BigInt(row[name] as string);
    for (const name of decimals) if (row[name] != null) row[name] = new Prisma.Decimal(row[name] as string);
    for (const name of lists) row[name] ??= [];
  };
}

/** A relation as an object type includes it: all its fields (`true`), or some of them in an order. */
type IncludeValue = true | { readonly select: Readonly<Record<string, true>>; readonly orderBy?: Readonly<Record<string, 'asc' | 'desc'>> };
export type Include = Readonly<Record<string, IncludeValue>>;

/** Where a relation's rows are: the table, and the join condition given the related row's alias and the parent's. */
export type RelationTable = { table: string; on: (related: string, parent: string) => string };

type Loaded = { lateral: string; revive: Revive; name: string; list: boolean };

function relation(model: string, name: string, include: IncludeValue, where: RelationTable, parent: string, n: number): Loaded {
  const field = models[model].fields.find((f) => f.name === name && f.kind === 'object');
  if (!field) throw new Error(`${model}.${name} is not a relation`);
  const fields = fieldsOf(field.type, include === true ? undefined : Object.keys(include.select));
  const alias = `r${n}`;
  const object = jsonObject(field.type, fields, alias);
  const from = `FROM "${where.table}" ${alias} WHERE ${where.on(alias, parent)}`;
  let json: string;
  if (field.isList) {
    const order = include === true || !include.orderBy ? [] : Object.entries(include.orderBy).map(([key, direction]) => `${value(fieldsOf(field.type, [key])[0], alias)} ${direction.toUpperCase()}`);
    json = `SELECT coalesce(json_agg(${object}${order.length ? ` ORDER BY ${order.join(', ')}` : ''}), '[]') AS "json" ${from}`;
  } else {
    // LIMIT 1, as Prisma writes its own: the planner keeps the nested loop and memoizes a related row met again
    // (one advertiser for a page of its ads), built once per page.
    json = `SELECT ${object} AS "json" ${from} LIMIT 1`;
  }
  return { name, list: field.isList, revive: reviver(field.type, fields), lateral: `LEFT JOIN LATERAL (${json}) j${n} ON TRUE` };
}

export type JsonRowsLoader<Row> = {
  /** Whether a Prisma query (Pothos's selection) asks for no more than the statement loads. */
  serves(query: object): boolean;
  /** The rows of `ids` in no particular order, with every relation of the include. */
  load(prisma: Prisma.TransactionClient, ids: readonly string[]): Promise<Row[]>;
  /**
   * The same rows as one expression of another statement: the ids come from `ids`, a subquery of one text column;
   * its value (JSON text) is read back with `parse`. A list that finds its page of ids in SQL loads the page's rows in
   * the same statement (shared/cursor.ts: findKeysetPage).
   */
  inline(ids: Prisma.Sql): Prisma.Sql;
  parse(json: string): Row[];
};

/**
 * The loader of `model`'s rows (table `table`, id column "id" of type `idType`) with the relations of `include`,
 * each found in its table by `relations`.
 */
export function jsonRowsLoader<Row, I extends Include>(
  model: string,
  source: { table: string; idType?: 'text' | 'uuid' },
  include: I,
  relations: { readonly [K in keyof I]: RelationTable },
): JsonRowsLoader<Row> {
  const parent = 't';
  const fields = fieldsOf(model);
  const loaded = Object.entries(include).map(([name, value], n) => relation(model, name, value, relations[name], parent, n));
  const statement = Prisma.raw(`
    SELECT ${fields.map((field) => `${value(field, parent)} AS "${field.name}"`).join(', ')}${loaded.map((r, n) => `, j${n}."json" AS "${r.name}"`).join('')}
    FROM "${source.table}" ${parent} ${loaded.map((r) => r.lateral).join(' ')}`);
  const idType = Prisma.raw(source.idType ?? 'text');
  const reviveRow = reviver(model, fields);
  // A map by name: no inherited key (`constructor`) matches.
  const accepted = new Map<string, unknown>(Object.entries(include));
  const rowsOf = (ids: Prisma.Sql) => sql`(SELECT coalesce(json_agg(x), '[]')::text FROM (${statement} WHERE ${Prisma.raw(parent)}."id" = ANY(${ids})) x)`;
  const parse = (json: string): Row[] => {
    const rows = JSON.parse(json) as Record<string, unknown>[];
    for (const row of rows) {
      reviveRow(row);
      for (const { name, list, revive } of loaded) {
        const related = row[name] as Record<string, unknown> | Record<string, unknown>[] | null;
        if (related === null) continue;
        if (list) for (const item of related as Record<string, unknown>[]) revive(item);
        else revive(related as Record<string, unknown>);
      }
    }
    return rows as Row[];
  };
  return {
    serves(query) {
      const { include: asked, ...rest } = query as { include?: Record<string, unknown> };
      if (Object.keys(rest).length) return false;
      return Object.entries(asked ?? {}).every(([name, wanted]) => wanted === false || (accepted.has(name) && isDeepStrictEqual(accepted.get(name), wanted)));
    },
    async load(prisma, ids) {
      if (!ids.length) return [];
      const [{ rows }] = await prisma.$queryRaw<{ rows: string }[]>`SELECT ${rowsOf(sql`${[...ids]}::${idType}[]`)} AS "rows"`;
      return parse(rows);
    },
    inline: (ids) => rowsOf(sql`ARRAY(${ids})::${idType}[]`),
    parse,
  };
}
