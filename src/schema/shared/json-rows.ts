import { OMITTED } from '../../db/client.js';
import { Prisma } from '../../generated/prisma/client.js';
import { getDatamodel } from '../../generated/pothos-types.js';
import { MEDIA_PATH, mediaUrlSql } from './media-url.js';

// Rows that PostgreSQL writes as JSON, for hot reads that Prisma would otherwise map value by value in JavaScript
// (ads/service/search.ts, ads/service/detail.ts, emails/service/load.ts, products/service/by-ids.ts under src/schema). What such a statement loads
// is declared as a Prisma selection (`select`/`include`, as Pothos hands a resolver): the JSON objects are built
// from it and the Prisma datamodel, the values given Prisma's types back from it, and a request's selection is
// served only when the declared one covers it. A test per statement compares it with Prisma's findMany on the same
// selection.

type ModelField = {
  readonly name: string;
  readonly kind: string;
  readonly type: string;
  readonly isList: boolean;
};

/** A Prisma selection: `true` (the scalar fields), or `select`/`include` with the relation arguments (orderBy, where…). */
export type Selection = boolean | { readonly select?: Relations; readonly include?: Relations; readonly [argument: string]: unknown };
type Relations = { readonly [field: string]: Selection | undefined };

const models = getDatamodel().datamodel.models as Record<string, { fields: readonly ModelField[] }>;
/** What the client omits (OMITTED) is no scalar of its model here either: a read that wants it is left to Prisma. */
const omitted = (model: string): Readonly<Record<string, boolean>> => (OMITTED as Record<string, Record<string, boolean>>)[model[0].toLowerCase() + model.slice(1)] ?? {};
const scalarsOf = (model: string) => models[model].fields.filter((field) => (field.kind === 'scalar' || field.kind === 'enum') && !omitted(model)[field.name]);
const fieldMaps = new Map(Object.entries(models).map(([model, { fields }]) => [model, new Map(fields.map((field) => [field.name, field]))]));
const fieldOf = (model: string, name: string) => fieldMaps.get(model)?.get(name);

const UNSUPPORTED = new Set(['Bytes']);

/**
 * A scalar as JSON in Prisma's terms: BigInt and Decimal as text (JSON numbers lose their digits), DateTime as epoch
 * milliseconds, which is how Prisma reads every date type (a timestamp without time zone as UTC, a date as its UTC
 * midnight) whatever the session's time zone, and how microseconds are dropped (floor, as Date's parser does). Exact
 * from PostgreSQL 14 on, where extract() gives numeric (before, a double that can fall a hair below a millisecond).
 */
function scalarSql(model: string, field: ModelField, alias: string): string {
  if (UNSUPPORTED.has(field.type)) throw new Error(`${model}.${field.name}: ${field.type} is not loaded as JSON`);
  if (field.isList && ['DateTime', 'BigInt', 'Decimal'].includes(field.type)) throw new Error(`${model}.${field.name}: lists of dates, bigints or decimals are not loaded as JSON`);
  const column = `${alias}."${field.name}"`;
  if (field.type === 'BigInt' || field.type === 'Decimal') return `${column}::text`;
  if (field.type === 'DateTime') return `floor(extract(epoch FROM ${column}) * 1000)`;
  return column;
}

/** The scalar fields a selection reads: those named by `select`, else all. */
function scalarsRead(model: string, selection: Selection): ModelField[] {
  const select = typeof selection === 'object' ? selection.select : undefined;
  return select ? scalarsOf(model).filter((field) => select[field.name] === true) : scalarsOf(model);
}

/** The relations a selection reads, with their selections. */
function relationsRead(model: string, selection: Selection): [ModelField, Selection][] {
  const relations = typeof selection === 'object' ? (selection.select ?? selection.include ?? {}) : {};
  return Object.entries(relations).flatMap(([name, value]) => {
    const field = fieldOf(model, name);
    if (!field) throw new Error(`${model} has no field "${name}"`);
    return field.kind === 'object' && value ? [[field, value] as [ModelField, Selection]] : [];
  });
}

/** `alias."field"` for each scalar field of the model, as columns of a row that row_to_json or json_agg writes. */
export function columns(model: string, alias: string): string {
  return scalarsOf(model).map((field) => `${scalarSql(model, field, alias)} AS "${field.name}"`).join(', ');
}

/**
 * json_build_object of what `selection` reads of the model's row `alias`: its scalar fields, and each of its relations
 * as the SQL given in `relations` (every relation the selection reads must be given one). At most 50 entries
 * (json_build_object takes 100 arguments).
 */
export function jsonObject(model: string, alias: string, selection: Selection = true, relations: Record<string, string> = {}): string {
  const entries = scalarsRead(model, selection).map((field) => `'${field.name}', ${scalarSql(model, field, alias)}`);
  for (const [field] of relationsRead(model, selection)) {
    if (!Object.hasOwn(relations, field.name)) throw new Error(`${model}.${field.name}: no SQL given for the relation`);
    entries.push(`'${field.name}', ${relations[field.name]}`);
  }
  if (entries.length > 50) throw new Error(`${model}: too many fields for json_build_object`);
  return `json_build_object(${entries.join(', ')})`;
}

type Reviver = (row: Record<string, unknown>) => void;

/**
 * The rows of `statement` (`SELECT … FROM table alias`, no WHERE) whose `idColumn` (e.g. `e."id"`) is in an array
 * expression, as one JSON text (`of`: an expression of any statement), and their parser (`revive`, a reviver of the
 * statement's selection, gives them Prisma's types back).
 */
export function jsonRowSet<Row>(statement: Prisma.Sql, idColumn: string, revive: Reviver) {
  return {
    of: (ids: Prisma.Sql) => Prisma.sql`(SELECT coalesce(json_agg(x), '[]')::text FROM (${statement} WHERE ${Prisma.raw(idColumn)} = ANY(${ids})) x)`,
    parse(json: string): Row[] {
      const rows = JSON.parse(json) as Record<string, unknown>[];
      for (const row of rows) revive(row);
      return rows as unknown as Row[];
    },
  };
}

/**
 * Turns the JSON of a row read with `selection` back into Prisma's types, in place, its relations' rows included:
 * dates, bigints, floats PostgreSQL writes as text (NaN, Infinity), and a NULL list as [] (as Prisma reads it).
 */
export function reviver(model: string, selection: Selection = true): Reviver {
  const scalars = scalarsRead(model, selection);
  const named = (keep: (field: ModelField) => boolean) => scalars.filter(keep).map((field) => field.name);
  const dates = named((field) => field.type === 'DateTime' && !field.isList);
  const bigints = named((field) => field.type === 'BigInt' && !field.isList);
  const decimals = named((field) => field.type === 'Decimal' && !field.isList);
  const floats = named((field) => field.type === 'Float' && !field.isList);
  const lists = named((field) => field.isList);
  const relations = relationsRead(model, selection).map(([field, nested]) => [field.name, reviver(field.type, nested)] as const);
  return (row) => {
    for (const name of dates) if (row[name] != null) row[name] = new Date(row[name] as number);
    for (const name of bigints) if (row[name] != null) row[name] = BigInt(row[name] as string);
    for (const name of decimals) if (row[name] != null) row[name] = new Prisma.Decimal(row[name] as string);
    for (const name of floats) if (typeof row[name] === 'string') row[name] = Number(row[name]);
    for (const name of lists) row[name] ??= [];
    for (const [name, revive] of relations) {
      const value = row[name] as Record<string, unknown>[] | Record<string, unknown> | null;
      if (Array.isArray(value)) for (const item of value) revive(item);
      else if (value) revive(value);
    }
  };
}

type Arguments = Readonly<Record<string, unknown>>;

/** A relation's arguments (order, filter, page…): what a selection holds besides `select` and `include`. */
function argumentsOf(selection: Selection): Arguments {
  if (typeof selection !== 'object') return {};
  const { select: _select, include: _include, ...rest } = selection;
  return rest;
}

/** Whether a wanted selection has the loaded one's arguments (the same objects when both come from one constant). */
function sameArguments(loaded: Arguments, wanted: Exclude<Selection, boolean>): boolean {
  let count = 0;
  for (const key in wanted) {
    if (key === 'select' || key === 'include') continue;
    count += 1;
    if (!Object.hasOwn(loaded, key) || (loaded[key] !== wanted[key] && JSON.stringify(loaded[key]) !== JSON.stringify(wanted[key]))) return false;
  }
  return count === Object.keys(loaded).length;
}

type Loaded = { allScalars: boolean; scalars: ReadonlySet<string>; args: Arguments; relations: ReadonlyMap<string, Loaded> };

function loadedBy(model: string, selection: Selection): Loaded {
  const scalars = new Set(scalarsRead(model, selection).map((field) => field.name));
  return {
    allScalars: scalars.size === scalarsOf(model).length,
    scalars,
    args: argumentsOf(selection),
    relations: new Map(relationsRead(model, selection).map(([field, nested]) => [field.name, loadedBy(field.type, nested)])),
  };
}

function holds(loaded: Loaded, wanted: Selection): boolean {
  if (wanted === true) return loaded.allScalars && Object.keys(loaded.args).length === 0;
  if (!wanted) return true;
  const { select, include } = wanted;
  if ((select && include) || !sameArguments(loaded.args, wanted) || (!select && !loaded.allScalars)) return false;
  const fields = select ?? include;
  for (const name in fields) {
    const value = fields[name];
    if (!value) continue;
    const relation = loaded.relations.get(name);
    if (relation ? !holds(relation, value) : !(value === true && loaded.scalars.has(name))) return false;
  }
  return true;
}

/**
 * Whether rows read with `loaded` hold everything a selection asks for (its scalars, and each relation read with the
 * same arguments: order, filter, page). What a resolver finds beyond its selection it does not read. Decided on every
 * request, so what `loaded` holds is worked out once.
 */
export function coverage(model: string, loaded: Selection): (wanted: object) => boolean {
  const have = loadedBy(model, loaded);
  return (wanted) => holds(have, wanted as Selection);
}

// ---------------------------------------------------------------------------------------------------------------
// Items as a transport shows them, written by PostgreSQL as compact JSON text (exports' bulk reads: a chunk of rows
// written to a file without a resolver per field). Each field's value is SQL; the text is what JSON.stringify writes
// of the same object, its keys in the given order.

/**
 * One key of a JSON text object: its SQL value, read as `value` (a value that needs JSON's escaping, strings and
 * lists: to_json writes it), `json` (SQL of text that is JSON already, written as it is: a number's or a boolean's
 * text, isoJson, a nested jsonText) or `omitNull` (a `value` whose key is left out when it is null, as the REST
 * envelope's omitNull keys are). NULL is written as null.
 */
export type JsonTextField = readonly [key: string, sql: Prisma.Sql | string, kind?: 'value' | 'json' | 'omitNull'];

/**
 * The SQL of one compact JSON object's text (`{"k":v,…}`), built by one concat() (to_json only for what needs
 * escaping: it costs a type lookup per value); the first field may not be omitNull.
 */
export function jsonText(fields: readonly JsonTextField[]): Prisma.Sql {
  if (!fields.length || fields[0]![2] === 'omitNull') throw new Error('jsonText: the first field must always be written');
  if (fields.length > 49) throw new Error('jsonText: at most 49 fields (concat takes 100 arguments)');
  const parts = fields.flatMap(([key, given, kind = 'value'], i) => {
    const value = typeof given === 'string' ? Prisma.raw(given) : given;
    const name = Prisma.raw(`'${i ? ',' : '{'}${JSON.stringify(key).replaceAll("'", "''")}:'`);
    if (kind === 'json') return [name, Prisma.sql`coalesce(${value}, 'null')`];
    if (kind === 'omitNull') return [Prisma.sql`(CASE WHEN (${value}) IS NULL THEN '' ELSE ${name} || to_json(${value})::text END)`];
    return [name, Prisma.sql`coalesce(to_json(${value})::text, 'null')`];
  });
  return Prisma.sql`concat(${Prisma.join(parts, ', ')}, '}')`;
}

/** to_char's format of a UTC timestamp as JSON writes a JavaScript Date (toISOString: milliseconds, `Z`, quoted). */
const ISO_JSON_FORMAT = `'\\"YYYY-MM-DD"T"HH24:MI:SS.MS"Z"\\"'`;

/** A timestamp column as JSON writes a JavaScript Date (toISOString: UTC, milliseconds, `Z`, quoted), or NULL. */
export function isoJson(column: string): string {
  return `to_char(${column} AT TIME ZONE 'UTC', ${ISO_JSON_FORMAT})`;
}

// The value part of a jsonText field for what PostgreSQL writes as JSON itself: `['reach', ...jsonNumber('a."reach"')]`.

const sqlOf = (value: Prisma.Sql | string) => (typeof value === 'string' ? Prisma.raw(value) : value);

/** A number (a column or an expression): its text, which is a JSON number (a float8's text is the shortest that reads back as it). */
export function jsonNumber(expression: string | Prisma.Sql): readonly [Prisma.Sql, 'json'] {
  return [Prisma.sql`(${sqlOf(expression)})::text`, 'json'];
}

/** An enum's (or a text that needs no escaping's) value, quoted as a JSON string. */
export function jsonEnum(expression: string | Prisma.Sql): readonly [Prisma.Sql, 'json'] {
  return [Prisma.sql`'"' || (${sqlOf(expression)})::text || '"'`, 'json'];
}

/** A timestamp as REST writes it (isoJson). */
export function jsonIso(expression: string | Prisma.Sql): readonly [Prisma.Sql, 'json'] {
  return [Prisma.sql`to_char((${sqlOf(expression)}) AT TIME ZONE 'UTC', ${Prisma.raw(ISO_JSON_FORMAT)})`, 'json'];
}

/**
 * The SQL of a JSON array's text (`[…]`, compact, `[]` for none) whose items are `item` (SQL of JSON text: a jsonText,
 * to_json(…)::text) over the rows of `from` (`FROM … [WHERE …]`), in `order`.
 */
export function jsonTextArray(item: Prisma.Sql, from: Prisma.Sql, order: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`(SELECT '[' || coalesce(string_agg(${item}, ',' ORDER BY ${order}), '') || ']' ${from})`;
}

// ---------------------------------------------------------------------------------------------------------------
// Items declared once as a shape, written either by PostgreSQL as JSON text (shapeJsonText: jsonText) or read as one
// record of typed values (shapeRecord: a column a leaf, each cast to its kind's type) that the export's worker thread
// decodes from a binary COPY and writes itself (exports/service/records.ts): PostgreSQL then reads columns and builds
// no text, and the worker fills Parquet's and CSV's columns without parsing JSON.

/**
 * How a leaf travels and is written: `text` a string (to_json in SQL, JSON.stringify in the worker), `enum` a string
 * that needs no escaping (written quoted in SQL), `json` text that is JSON already (copied as it is), `int` (int4),
 * `bigint` (int8, written as its digits), `float` (float8), `bool`, `iso` a timestamp as isoJson writes it, `media` a
 * stored media URL (a text column) as clients see it (media-url.ts: mediaUrlSql in SQL, the worker prefixes the plan's
 * `mediaBase`), `texts` a text[] as a JSON array of strings (to_json in SQL, the worker reads the array's binary form).
 * A record sends `media` and `texts` as they are stored: PostgreSQL neither concatenates nor writes JSON per row.
 */
export type ItemLeafKind = 'text' | 'enum' | 'json' | 'int' | 'bigint' | 'float' | 'bool' | 'iso' | 'media' | 'texts';
/** A leaf of an item: its SQL value and kind; `omitNull` (text only): its key left out when it is null. */
export type ItemLeaf = { readonly leaf: ItemLeafKind; readonly sql: Prisma.Sql | string; readonly omitNull?: boolean };
/** An item (or a nested object of it): its keys in order, each a leaf or a nested object (never null). */
export type ItemShape = readonly (readonly [key: string, value: ItemLeaf | ItemShape])[];

/** A leaf of `kind` (`omitNull`: a text's key left out when null; `media`: `sql` is the stored URL's column). */
export function leaf(kind: ItemLeafKind, sql: Prisma.Sql | string, omitNull = false): ItemLeaf {
  if (omitNull && kind !== 'text') throw new Error('leaf: only a text leaf may be omitNull');
  if (kind === 'media' && typeof sql !== 'string') throw new Error('leaf: a media leaf is a column');
  return { leaf: kind, sql, omitNull };
}

const isLeaf = (value: ItemLeaf | ItemShape): value is ItemLeaf => !Array.isArray(value);

/**
 * The item's compact JSON text, written by PostgreSQL (jsonText), as JSON.stringify writes the object; `base` is SQL of
 * the media URLs' base (its `media` leaves).
 */
export function shapeJsonText(shape: ItemShape, base: Prisma.Sql): Prisma.Sql {
  return jsonText(shape.map(([key, value]): JsonTextField => {
    if (!isLeaf(value)) return [key, shapeJsonText(value, base), 'json'];
    const sql = sqlOf(value.sql);
    switch (value.leaf) {
      case 'text': return [key, sql, value.omitNull ? 'omitNull' : 'value'];
      case 'media': return [key, mediaUrlSql(value.sql as string, base)];
      case 'texts': return [key, sql];
      case 'enum': return [key, ...jsonEnum(sql)];
      case 'json': return [key, sql, 'json'];
      case 'iso': return [key, ...jsonIso(sql)];
      default: return [key, ...jsonNumber(sql)];
    }
  }));
}

/**
 * How the worker writes an item read as a record: its leaves in the record's order, each with the text written before
 * it whatever its value (`lead`: the closing braces of the objects before it), its key's text (`name`, with the
 * opening brace of the object it starts; left out with the value when `omit` and null) and its path in the item; then
 * `suffix`. Plain data (handed to the worker thread).
 */
export type RecordPlan = {
  leaves: { kind: ItemLeafKind; lead: string; name: string; omit: boolean; path: string[] }[];
  suffix: string;
  /** The `media` leaves: a stored URL that starts with `own` (the server's own media) is prefixed with `base` (mediaUrl). */
  media: { own: string; base: string };
};

/** The type a leaf is cast to in the record; an enum is sent as its label's text, uncast (no I/O conversion). */
const RECORD_TYPES: Record<ItemLeafKind, string | null> = {
  text: 'text', enum: null, json: 'text', int: 'int4', bigint: 'int8', float: 'float8', bool: 'bool', iso: 'timestamptz', media: 'text', texts: 'text[]',
};

/**
 * The item as one record: `columns`, a select list of its leaves (`c0`, `c1`, …, each cast to its kind's type), and
 * how the worker writes them; `mediaBase` the public base URL of its `media` leaves. A COPY of these columns sends
 * each row's values as they are (no `ROW(…)` built of them and taken apart again by record_send: ~15% of PostgreSQL's
 * work a row for the ads).
 */
export function shapeRecord(shape: ItemShape, mediaBase: string): { columns: Prisma.Sql; plan: RecordPlan } {
  const leaves: RecordPlan['leaves'] = [];
  const values: Prisma.Sql[] = [];
  let pending = '';
  const walk = (fields: ItemShape, path: string[]) => {
    if (!fields.length) throw new Error('shapeRecord: an object without keys');
    fields.forEach(([key, value], i) => {
      const name = `${i ? ',' : '{'}${JSON.stringify(key)}:`;
      if (!isLeaf(value)) {
        pending += name;
        walk(value, [...path, key]);
        pending += '}';
        return;
      }
      if (value.omitNull && !i) throw new Error('shapeRecord: the first key of an object must always be written');
      leaves.push({ kind: value.leaf, lead: pending, name, omit: value.omitNull === true, path: [...path, key] });
      const type = RECORD_TYPES[value.leaf];
      const alias = Prisma.raw(`c${values.length}`);
      values.push(type ? Prisma.sql`(${sqlOf(value.sql)})::${Prisma.raw(type)} AS ${alias}` : Prisma.sql`(${sqlOf(value.sql)}) AS ${alias}`);
      pending = '';
    });
  };
  walk(shape, []);
  return { columns: Prisma.join(values, ', '), plan: { leaves, suffix: `${pending}}`, media: { own: `${MEDIA_PATH}/`, base: mediaBase } } };
}
