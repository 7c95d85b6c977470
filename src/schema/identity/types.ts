import type { Principal } from '../../auth/principal.js';
import { AccessLevel, WorkspaceRole } from '../../generated/prisma/enums.js';
import { builder } from '../builder.js';

export const AccessLevelEnum = builder.enumType(AccessLevel, { name: 'AccessLevel' });
export const WorkspaceRoleEnum = builder.enumType(WorkspaceRole, { name: 'WorkspaceRole' });

type Credential = Principal['credential'];
type Workspace = Principal['workspace'];

export const WorkspaceSummary = builder.objectRef<Workspace>('WorkspaceSummary').implement({
  fields: (t) => ({
    id: t.exposeID('id'),
    slug: t.exposeString('slug'),
    name: t.exposeString('name'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

export const MeCredential = builder.objectRef<Credential>('MeCredential').implement({
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    description: t.exposeString('description', { nullable: true }),
    accessLevel: t.expose('accessLevel', { type: AccessLevelEnum }),
    expiresAt: t.expose('expiresAt', { type: 'DateTime', nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    lastUsedAt: t.expose('lastUsedAt', { type: 'DateTime', nullable: true }),
  }),
});

export const WorkspaceCredential = builder.objectRef<Credential>('WorkspaceCredential').implement({
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    description: t.exposeString('description', { nullable: true }),
    expiresAt: t.expose('expiresAt', { type: 'DateTime', nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    lastUsedAt: t.expose('lastUsedAt', { type: 'DateTime', nullable: true }),
  }),
});

export const DelegatedUser = builder.objectRef<NonNullable<Principal['delegatedUser']>>('DelegatedUser').implement({
  fields: (t) => ({
    id: t.exposeID('id'),
    fullName: t.exposeString('fullName'),
    avatarUrl: t.exposeString('avatarUrl', { nullable: true }),
    workspaceRole: t.expose('role', { type: WorkspaceRoleEnum }),
  }),
});

export const AuthenticatedAs = builder.objectRef<Principal>('AuthenticatedAs').implement({
  fields: (t) => ({
    accessLevel: t.field({ type: AccessLevelEnum, resolve: (p) => p.credential.accessLevel }),
    delegatedUserId: t.id({ nullable: true, resolve: (p) => p.delegatedUser?.id ?? null }),
    delegatedUserRole: t.field({ type: WorkspaceRoleEnum, nullable: true, resolve: (p) => p.delegatedUser?.role ?? null }),
  }),
});

export const Me = builder.objectRef<Principal>('Me').implement({
  description: 'The credential, workspace and delegated user resolved from the API key.',
  fields: (t) => ({
    credential: t.field({ type: MeCredential, resolve: (p) => p.credential }),
    workspace: t.field({ type: WorkspaceSummary, resolve: (p) => p.workspace }),
    delegatedUser: t.field({ type: DelegatedUser, nullable: true, resolve: (p) => p.delegatedUser }),
  }),
});

export const WorkspaceResponse = builder.objectRef<Principal>('WorkspaceResponse').implement({
  description: 'The workspace bound to the API key and the effective authentication context.',
  fields: (t) => ({
    workspace: t.field({ type: WorkspaceSummary, resolve: (p) => p.workspace }),
    authenticatedAs: t.field({ type: AuthenticatedAs, resolve: (p) => p }),
    credential: t.field({ type: WorkspaceCredential, resolve: (p) => p.credential }),
  }),
});
