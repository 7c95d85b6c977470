import { queryFromInfo } from '@pothos/plugin-prisma';
import type { GraphQLResolveInfo } from 'graphql';
import { z } from 'zod';
import type { Context } from '../../context.js';
import type { Email } from '../../generated/prisma/client.js';
import { builder } from '../builder.js';
import { actorOf, scopeKey } from '../boards/access.js';
import { LIST_LIMITS, uuid } from '../boards/args.js';
import { BoardScopeEnum } from '../boards/enums.js';
import { saveOrMoveItem } from '../boards/store.js';
import { findTarget } from '../boards/targets.js';
import { pageArgs, PagePaginationRef, type PagePagination } from '../shared/pagination.js';
import { EMAILS, favoriteWhere, placeOf } from './family.js';
import { defineFolderFields } from './folder-fields.js';
import { deleteSaved, favoritePage, loadFavorites, moveSaved, removeSaved, type FavoriteRow } from './items.js';
import { FavoriteEmailSummary, loadFavoriteEmails } from './summaries.js';
import { NestedFolderRef, SCOPE_DESCRIPTION } from './types.js';

// Favorite emails: board items of type email, in nested folders. A favorite's public id is the item's uuid; an email
// is saved once per scope (adding it again with another folder moves it there).

type FavoriteEmailRow = FavoriteRow & { email: Email | null };

const FavoriteEmailFolder = NestedFolderRef('FavoriteEmailFolder');

const FavoriteEmail = builder.objectRef<FavoriteEmailRow>('FavoriteEmail').implement({
  description: 'A saved email. Its id is the saved row (board item) uuid; its folder a board.',
  fields: (t) => ({
    id: t.string({ resolve: (row) => row.id }),
    scope: t.field({ type: BoardScopeEnum, resolve: (row) => row.scope }),
    savedAt: t.field({ type: 'DateTime', resolve: (row) => row.createdAt }),
    folder: t.field({ type: FavoriteEmailFolder, nullable: true, description: 'Null at the root.', resolve: (row) => row.board }),
    email: t.field({ type: FavoriteEmailSummary, nullable: true, description: 'Null when the email content is no longer available.', resolve: (row) => row.email as never }),
  }),
});

const FavoriteEmailPage = builder.objectRef<{ data: FavoriteEmailRow[]; pagination: PagePagination }>('FavoriteEmailPage').implement({
  fields: (t) => ({ data: t.field({ type: [FavoriteEmail], resolve: (page) => page.data }), pagination: t.field({ type: PagePaginationRef, resolve: (page) => page.pagination }) }),
});

const FavoriteEmailAddResult = builder.objectRef<{ data: FavoriteEmailRow; created: boolean }>('FavoriteEmailAddResult').implement({
  fields: (t) => ({
    data: t.field({ type: FavoriteEmail, resolve: (result) => result.data }),
    created: t.exposeBoolean('created', { description: 'False when the email was already saved in the scope (moved to folderId if it differs, otherwise unchanged with no audit event).' }),
  }),
});

type EmailRemoval = { removed: boolean; emailId: number; scope: 'workspace' | 'personal'; folderId: string | null; savedFavoriteId: string | null };
const FavoriteEmailRemoval = builder.objectRef<EmailRemoval>('FavoriteEmailRemoval').implement({
  fields: (t) => ({
    removed: t.exposeBoolean('removed', { description: 'False when the email was not saved there.' }),
    emailId: t.exposeInt('emailId'),
    scope: t.field({ type: BoardScopeEnum, resolve: (r) => r.scope }),
    folderId: t.exposeString('folderId', { nullable: true }),
    savedFavoriteId: t.exposeString('savedFavoriteId', { nullable: true }),
  }),
});

async function withEmails(context: Context, info: GraphQLResolveInfo, path: string[], rows: FavoriteRow[]): Promise<FavoriteEmailRow[]> {
  const ids = [...new Set(rows.flatMap((row) => (row.emailId ? [row.emailId] : [])))];
  const emails = await loadFavoriteEmails(context.prisma, ids, queryFromInfo({ context, info, path }));
  const byId = new Map(emails.map((email) => [email.id, email]));
  return rows.map((row) => ({ ...row, email: (row.emailId && byId.get(row.emailId)) || null }));
}

const emailId = z.number().int().min(1);

builder.queryFields((t) => ({
  favoriteEmails: t.field({
    type: FavoriteEmailPage,
    authScopes: { workspace: true },
    description: 'Saved emails of a scope, newest first (GET /v1/favorites/emails). Deprecated: use boards.',
    args: {
      scope: t.arg({ type: BoardScopeEnum, required: true, description: SCOPE_DESCRIPTION }),
      folderId: t.arg.string({ description: 'Only the emails saved in this folder (uuid).', validate: uuid }),
      ...pageArgs(LIST_LIMITS),
    },
    resolve: async (_root, args, context, info) => {
      const actor = await actorOf(context);
      const page = { page: args.page ?? 1, limit: args.limit ?? LIST_LIMITS.defaultLimit };
      const { rows, pagination } = await favoritePage(context, actor, scopeKey(actor, args.scope), EMAILS, args.folderId, page);
      return { data: await withEmails(context, info, ['data', 'email'], rows), pagination };
    },
  }),
}));

builder.mutationFields((t) => ({
  favoriteEmailAdd: t.field({
    type: FavoriteEmailAddResult,
    authScopes: { writer: true },
    description:
      'Saves an email (POST /v1/favorites/emails) at the root or in folderId. An email is saved once per scope: adding it again returns it ' +
      'with created false, moved to folderId when that differs (an update, audited).',
    args: {
      scope: t.arg({ type: BoardScopeEnum, required: true, description: SCOPE_DESCRIPTION }),
      emailId: t.arg.int({ required: true, description: 'The email id.', validate: emailId }),
      folderId: t.arg.string({ description: 'A folder of the scope; null or omitted: the root.', validate: uuid }),
    },
    resolve: async (_root, args, context, info) => {
      const actor = await actorOf(context);
      const key = scopeKey(actor, args.scope);
      const place = await placeOf(context, actor, key, EMAILS, args.folderId);
      const target = await findTarget(context, 'email', String(args.emailId), 'emailId');
      // The email saved in the scope is looked for inside the save's write: a keyed retry of an add that committed is
      // handed its created true, not the created false of finding what its first call saved.
      const { id, created } = await saveOrMoveItem(context, actor, place, target, { AND: [favoriteWhere(actor, key, EMAILS), { emailId: args.emailId }] });
      const [data] = await withEmails(context, info, ['data', 'email'], await loadFavorites(context, [id]));
      return { data, created };
    },
  }),
  favoriteEmailRemove: t.field({
    type: FavoriteEmailRemoval,
    authScopes: { writer: true },
    description: 'Removes a saved email from the root or folderId (DELETE /v1/favorites/emails/{emailId}); audited before/null.',
    args: {
      emailId: t.arg.int({ required: true, validate: emailId }),
      scope: t.arg({ type: BoardScopeEnum, required: true, description: SCOPE_DESCRIPTION }),
      folderId: t.arg.string({ description: 'The folder it is saved in; omitted: the root.', validate: uuid }),
    },
    resolve: async (_root, args, context) => {
      const actor = await actorOf(context);
      const key = scopeKey(actor, args.scope);
      const { removed, item, folderId } = await removeSaved(context, actor, key, EMAILS, { emailId: args.emailId }, args.folderId);
      return { removed, emailId: args.emailId, scope: key.scope, folderId, savedFavoriteId: item?.id ?? null };
    },
  }),
  favoriteEmailMove: t.field({
    type: FavoriteEmail,
    authScopes: { writer: true },
    description: 'Moves one saved email to a folder, or to the root with folderId null (PATCH /v1/favorites/emails/saved/{favoriteId}/folder).',
    args: {
      favoriteId: t.arg.string({ required: true, validate: uuid }),
      scope: t.arg({ type: BoardScopeEnum, required: true, description: SCOPE_DESCRIPTION }),
      folderId: t.arg.string({ description: 'The destination folder; null: the root.', validate: uuid }),
    },
    resolve: async (_root, args, context, info) => {
      const actor = await actorOf(context);
      const id = await moveSaved(context, actor, scopeKey(actor, args.scope), EMAILS, { id: args.favoriteId.toLowerCase() }, args.folderId);
      return (await withEmails(context, info, ['email'], await loadFavorites(context, [id])))[0];
    },
  }),
  favoriteEmailDelete: t.field({
    type: FavoriteEmailRemoval,
    authScopes: { writer: true },
    description: 'Deletes one saved email by its saved id (DELETE /v1/favorites/emails/saved/{favoriteId}); audited before/null.',
    args: {
      favoriteId: t.arg.string({ required: true, validate: uuid }),
      scope: t.arg({ type: BoardScopeEnum, required: true, description: SCOPE_DESCRIPTION }),
    },
    resolve: async (_root, args, context) => {
      const actor = await actorOf(context);
      const key = scopeKey(actor, args.scope);
      const item = await deleteSaved(context, actor, key, EMAILS, { id: args.favoriteId.toLowerCase() });
      return { removed: true, emailId: item.emailId!, scope: key.scope, folderId: item.boardId, savedFavoriteId: item.id };
    },
  }),
}));

defineFolderFields({ family: EMAILS, prefix: 'favoriteEmail', typePrefix: 'FavoriteEmail', folder: FavoriteEmailFolder, affectedId: { type: 'String', of: (item) => item.id } });
