import { builder } from '../builder.js';
import { BoardScopeEnum } from '../boards/types.js';
import { EmailSummary as FavoriteEmailSummary } from '../emails/types.js';
import { listRef } from '../shared/list.js';
import { EMAILS } from './family.js';
import type { FavoriteEmailRow } from './service.js';
import { folderFamily, NestedFolderRef } from './types.js';

// The object types of favorite emails: a saved email (its id the item's uuid, its summary the emails domain's), its
// pages and answers, and its nested folders.

const FavoriteEmailFolder = NestedFolderRef('FavoriteEmailFolder');

export const FavoriteEmail = builder.objectRef<FavoriteEmailRow>('FavoriteEmail').implement({
  description: 'A saved email. Its id is the saved row (board item) uuid; its folder a board.',
  fields: (t) => ({
    id: t.string({ resolve: (row) => row.id }),
    scope: t.field({ type: BoardScopeEnum, resolve: (row) => row.scope }),
    savedAt: t.field({ type: 'DateTime', resolve: (row) => row.createdAt }),
    folder: t.field({ type: FavoriteEmailFolder, nullable: true, description: 'Null at the root.', resolve: (row) => row.board }),
    email: t.field({ type: FavoriteEmailSummary, nullable: true, description: 'Null when the email content is no longer available.', resolve: (row) => row.email as never }),
  }),
});

export const FavoriteEmailPage = listRef<FavoriteEmailRow>('FavoriteEmailPage', FavoriteEmail, { style: 'page' });

export const FavoriteEmailAddResult = builder.objectRef<{ data: FavoriteEmailRow; created: boolean }>('FavoriteEmailAddResult').implement({
  fields: (t) => ({
    data: t.field({ type: FavoriteEmail, resolve: (result) => result.data }),
    created: t.exposeBoolean('created', { description: 'False when the email was already saved in the scope (moved to folderId if it differs, otherwise unchanged with no audit event).' }),
  }),
});

type EmailRemoval = { removed: boolean; emailId: number; scope: 'workspace' | 'personal'; folderId: string | null; savedFavoriteId: string | null };
export const FavoriteEmailRemoval = builder.objectRef<EmailRemoval>('FavoriteEmailRemoval').implement({
  fields: (t) => ({
    removed: t.exposeBoolean('removed', { description: 'False when the email was not saved there.' }),
    emailId: t.exposeInt('emailId'),
    scope: t.field({ type: BoardScopeEnum, resolve: (r) => r.scope }),
    folderId: t.exposeString('folderId', { nullable: true }),
    savedFavoriteId: t.exposeString('savedFavoriteId', { nullable: true }),
  }),
});

export const EMAIL_FOLDERS = folderFamily({ family: EMAILS, prefix: 'favoriteEmail', typePrefix: 'FavoriteEmail', folder: FavoriteEmailFolder, affectedId: { type: 'String', of: (item) => item.id } });
