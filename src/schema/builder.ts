import SchemaBuilder from '@pothos/core';
import PrismaPlugin from '@pothos/plugin-prisma';
import ScopeAuthPlugin from '@pothos/plugin-scope-auth';
import ValidationPlugin from '@pothos/plugin-validation';
import MeteringPlugin from '../metering/pothos-plugin.js';
import { canWrite } from '../auth/principal.js';
import type { Context } from '../context.js';
import { apiError, validationError } from '../errors.js';
import type PrismaTypes from '../generated/pothos-types.js';
import { getDatamodel } from '../generated/pothos-types.js';
import { violationsFromIssues } from './validation.js';

export const builder = new SchemaBuilder<{
  Context: Context;
  PrismaTypes: PrismaTypes;
  AuthScopes: { public: boolean; workspace: boolean; writer: boolean };
  // Fields are non-null unless declared nullable: clients can rely on what the schema promises.
  DefaultFieldNullability: false;
  Scalars: {
    DateTime: { Input: Date; Output: Date | string };
    Date: { Input: Date; Output: Date | string };
    JSON: { Input: unknown; Output: unknown };
    SafeInt: { Input: number; Output: number | bigint };
  };
}>({
  plugins: [ScopeAuthPlugin, PrismaPlugin, ValidationPlugin, MeteringPlugin],
  defaultFieldNullability: false,
  scopeAuth: {
    // Deny by default: every root field names one of these scopes (a test enforces it).
    authScopes: (context) => ({
      public: true,
      workspace: async () => Boolean(await context.principal()),
      writer: async () => {
        if (!canWrite(await context.principal())) throw apiError('forbidden', 'This API key has read-only access to the workspace.');
        return true;
      },
    }),
    unauthorizedError: () => apiError('forbidden', 'This API key is not allowed to perform this operation.'),
  },
  prisma: {
    // Relations of workspace objects load through the request's workspace filter once it exists.
    client: (context) => context.workspaceScope.client ?? context.prisma,
    dmmf: getDatamodel(),
    exposeDescriptions: false,
    filterConnectionTotalCount: true,
    onUnusedQuery: null,
  },
  validation: {
    validationError: (failure) => validationError(violationsFromIssues(failure.issues)),
  },
});

builder.queryType({});
builder.mutationType({});
