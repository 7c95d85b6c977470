import {
  getNamedType, GraphQLBoolean, GraphQLFloat, GraphQLInt, isEnumType, isInputObjectType, isListType, isNonNullType,
  type GraphQLArgument, type GraphQLInputField, type GraphQLInputType,
} from 'graphql';

// A GraphQL argument list as the JSON Schema of a tool's input: what an agent sees is what the route takes.

export type JsonSchema = {
  type?: string; description?: string; enum?: string[]; format?: string; items?: JsonSchema; properties?: Record<string, JsonSchema>; required?: string[]; default?: unknown;
  minimum?: number; maximum?: number; minLength?: number; maxLength?: number;
};

const SCALAR_FORMATS: Record<string, JsonSchema> = {
  Date: { type: 'string', format: 'date' },
  DateTime: { type: 'string', format: 'date-time' },
  SafeInt: { type: 'integer' },
  JSON: {},
};

function typeSchema(type: GraphQLInputType): JsonSchema {
  const inner = isNonNullType(type) ? type.ofType : type;
  if (isListType(inner)) return { type: 'array', items: typeSchema(inner.ofType) };
  const named = getNamedType(inner);
  if (isEnumType(named)) return { type: 'string', enum: named.getValues().map((value) => value.name) };
  if (isInputObjectType(named)) return objectSchema(Object.values(named.getFields()));
  if (named === GraphQLInt) return { type: 'integer' };
  if (named === GraphQLFloat) return { type: 'number' };
  if (named === GraphQLBoolean) return { type: 'boolean' };
  return SCALAR_FORMATS[named.name] ?? { type: 'string' };
}

/** `{ type: object, properties, required }` of arguments or input fields; deprecated ones are left out. */
export function objectSchema(fields: readonly (GraphQLArgument | GraphQLInputField)[]): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const field of fields) {
    if (field.deprecationReason) continue;
    const schema = typeSchema(field.type);
    if (field.description) schema.description = field.description;
    if (field.defaultValue !== undefined) schema.default = field.defaultValue;
    properties[field.name] = schema;
    if (isNonNullType(field.type) && field.defaultValue === undefined) required.push(field.name);
  }
  return required.length ? { type: 'object', properties, required } : { type: 'object', properties };
}
