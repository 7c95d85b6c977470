import { queryFromInfo } from '@pothos/plugin-prisma';
import { builder } from '../builder.js';
import { BoardScopeEnum } from '../boards/types.js';
import { pageArgs } from '../shared/list.js';
// The families' types are made in the order the schema lists them: ads, shops, emails.
import { AD_FOLDERS, FavoriteAdPage } from './ads.js';
import { FavoriteShopPage, SHOP_FOLDERS } from './shops.js';
import { EMAIL_FOLDERS, FavoriteEmailPage } from './emails.js';
import { LIST_LIMITS, pageOf, SCOPE_DESCRIPTION, uuid } from './args.js';
import { favoriteFolderQueries } from './folder-fields.js';
import { FAVORITE_ADS, FAVORITE_EMAILS, FAVORITE_SHOPS, favoriteList } from './service.js';

// The favorites lists (deprecated: boards), each family's saved items then its folders.

builder.queryFields((t) => ({
  favoriteAds: t.field({
    type: FavoriteAdPage,
    authScopes: { workspace: true },
    description: 'Saved ads of a scope, newest first (GET /v1/favorites/ads). Deprecated: use boards.',
    args: {
      scope: t.arg({ type: BoardScopeEnum, required: true, description: SCOPE_DESCRIPTION }),
      folderId: t.arg.string({ description: 'Only the ads saved in this folder (uuid).', validate: uuid }),
      ...pageArgs(LIST_LIMITS),
    },
    resolve: (_root, args, context, info) => favoriteList(context, FAVORITE_ADS, args, pageOf(args), queryFromInfo({ context, info, path: ['data', 'ad'] })),
  }),
}));
favoriteFolderQueries(AD_FOLDERS);

builder.queryFields((t) => ({
  favoriteShops: t.field({
    type: FavoriteShopPage,
    authScopes: { workspace: true },
    description: 'Saved shops of a scope, newest first (GET /v1/favorites/shops). Deprecated: use boards.',
    args: {
      scope: t.arg({ type: BoardScopeEnum, required: true, description: SCOPE_DESCRIPTION }),
      folderId: t.arg.string({ description: 'Only the shops saved in this folder (uuid).', validate: uuid }),
      ...pageArgs(LIST_LIMITS),
    },
    resolve: (_root, args, context, info) => favoriteList(context, FAVORITE_SHOPS, args, pageOf(args), queryFromInfo({ context, info, path: ['data', 'shop'] })),
  }),
}));
favoriteFolderQueries(SHOP_FOLDERS);

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
    resolve: (_root, args, context, info) => favoriteList(context, FAVORITE_EMAILS, args, pageOf(args), queryFromInfo({ context, info, path: ['data', 'email'] })),
  }),
}));
favoriteFolderQueries(EMAIL_FOLDERS);
