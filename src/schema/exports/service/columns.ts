import {
  getNamedType, isListType, isNonNullType, isObjectType, isInterfaceType, Kind,
  type DocumentNode, type GraphQLOutputType, type GraphQLSchema, type SelectionSetNode, type GraphQLObjectType, type GraphQLInterfaceType,
} from 'graphql';
import type { Column } from './writers.js';

// The columns of a flat file (CSV, Parquet: writers.ts), read from the item type of the list's GraphQL operation. Apart
// from writers.ts so that the export's worker thread, which writes the files, does not load graphql-js.

type Composite = GraphQLObjectType | GraphQLInterfaceType;

function leafKind(type: GraphQLOutputType): Column['kind'] {
  const inner = isNonNullType(type) ? type.ofType : type;
  if (isListType(inner)) return 'json';
  const name = getNamedType(inner).name;
  if (name === 'Int') return 'int';
  if (name === 'Float') return 'float';
  if (name === 'Boolean') return 'bool';
  if (name === 'DateTime') return 'timestamp';
  if (name === 'JSON') return 'json';
  return 'string';
}

/** The columns of a list's items: the leaf fields of `data` in the operation, in its order, nested objects flattened. */
export function columnsOf(schema: GraphQLSchema, document: DocumentNode, field: string): Column[] {
  const columns = new Map<string, Column>();
  const walk = (type: Composite, selections: SelectionSetNode, prefix: string[]) => {
    for (const selection of selections.selections) {
      if (selection.kind === Kind.INLINE_FRAGMENT) {
        const on = selection.typeCondition ? schema.getType(selection.typeCondition.name.value) : type;
        if (on && (isObjectType(on) || isInterfaceType(on))) walk(on, selection.selectionSet, prefix);
        continue;
      }
      if (selection.kind !== Kind.FIELD || selection.name.value === '__typename') continue;
      const definition = type.getFields()[selection.name.value];
      if (!definition) continue;
      const name = selection.alias?.value ?? selection.name.value;
      const path = [...prefix, name];
      const inner = isNonNullType(definition.type) ? definition.type.ofType : definition.type;
      const named = getNamedType(definition.type);
      if (!isListType(inner) && selection.selectionSet && (isObjectType(named) || isInterfaceType(named))) {
        walk(named, selection.selectionSet, path);
      } else {
        const key = path.join('.');
        if (!columns.has(key)) columns.set(key, { name: key, path, kind: selection.selectionSet ? 'json' : leafKind(definition.type) });
      }
    }
  };
  const operation = document.definitions.find((definition) => definition.kind === Kind.OPERATION_DEFINITION);
  const root = operation?.selectionSet.selections.find((s) => s.kind === Kind.FIELD && s.name.value === field);
  const pageType = getNamedType(schema.getQueryType()!.getFields()[field]!.type);
  const data = root?.kind === Kind.FIELD ? root.selectionSet?.selections.find((s) => s.kind === Kind.FIELD && s.name.value === 'data') : undefined;
  if (!isObjectType(pageType) || data?.kind !== Kind.FIELD || !data.selectionSet) throw new Error(`exports: ${field} has no data to write`);
  const item = getNamedType(pageType.getFields().data!.type);
  if (!isObjectType(item) && !isInterfaceType(item)) throw new Error(`exports: ${field}'s items are not objects`);
  walk(item, data.selectionSet, []);
  return [...columns.values()];
}
