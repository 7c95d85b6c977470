import type { GraphQLField } from 'graphql';

/** True when a root field's access rule is `public` (declared with the resolver in its authScopes). */
export function isPublicField(field: GraphQLField<unknown, unknown>): boolean {
  const options = field.extensions?.pothosOptions as { authScopes?: Record<string, unknown> } | undefined;
  return options?.authScopes?.public === true;
}
