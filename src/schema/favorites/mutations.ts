import { queryFromInfo } from '@pothos/plugin-prisma';
import { builder } from '../builder.js';
import { BoardScopeEnum } from '../boards/types.js';
// The families' types are made in the order the schema lists them: ads, shops, emails.
import { AD_FOLDERS, FavoriteAd, FavoriteAdAddResult, FavoriteAdFolderShare, FavoriteAdRemoval } from './ads.js';
import { FavoriteShop, FavoriteShopAddResult, FavoriteShopRemoval, SHOP_FOLDERS } from './shops.js';
import { EMAIL_FOLDERS, FavoriteEmail, FavoriteEmailAddResult, FavoriteEmailRemoval } from './emails.js';
import { adId, emailId, favoriteId, SCOPE_DESCRIPTION, uuid } from './args.js';
import { favoriteFolderMutations } from './folder-fields.js';
import {
  FAVORITE_ADS,
  FAVORITE_EMAILS,
  FAVORITE_SHOPS,
  favoriteAdd,
  favoriteDelete,
  favoriteFolderShare,
  favoriteMove,
  favoriteRemove,
} from './service.js';

// Saving, removing, moving and deleting favorites (deprecated: boards), each family's then its folders' mutations.

builder.mutationFields((t) => ({
  favoriteAdAdd: t.field({
    type: FavoriteAdAddResult,
    authScopes: { writer: true },
    description: 'Saves an ad (POST /v1/favorites/ads) at the root or in folderId. An already saved ad is returned unchanged with created false.',
    args: {
      scope: t.arg({ type: BoardScopeEnum, required: true, description: SCOPE_DESCRIPTION }),
      adId: t.arg.string({ required: true, description: 'Composite ad id, e.g. facebook_123.', validate: adId }),
      folderId: t.arg.string({ description: 'A folder of the scope; null or omitted: the root.', validate: uuid }),
    },
    resolve: (_root, args, context, info) => favoriteAdd(context, FAVORITE_ADS, args, queryFromInfo({ context, info, path: ['data', 'ad'] })),
  }),
  favoriteAdRemove: t.field({
    type: FavoriteAdRemoval,
    authScopes: { writer: true },
    description: 'Removes a saved ad from the root or folderId (DELETE /v1/favorites/ads/{adId}); audited before/null.',
    args: {
      adId: t.arg.string({ required: true, validate: adId }),
      scope: t.arg({ type: BoardScopeEnum, required: true, description: SCOPE_DESCRIPTION }),
      folderId: t.arg.string({ description: 'The folder it is saved in; omitted: the root.', validate: uuid }),
    },
    resolve: (_root, args, context) => favoriteRemove(context, FAVORITE_ADS, args),
  }),
  favoriteAdMove: t.field({
    type: FavoriteAd,
    authScopes: { writer: true },
    description: 'Moves one saved ad to a folder, or to the root with folderId null (PATCH /v1/favorites/ads/saved/{favoriteId}/folder).',
    args: {
      favoriteId: t.arg.int({ required: true, validate: favoriteId }),
      scope: t.arg({ type: BoardScopeEnum, required: true, description: SCOPE_DESCRIPTION }),
      folderId: t.arg.string({ description: 'The destination folder; null: the root.', validate: uuid }),
    },
    resolve: (_root, args, context, info) => favoriteMove(context, FAVORITE_ADS, args, queryFromInfo({ context, info, path: ['ad'] })),
  }),
  favoriteAdDelete: t.field({
    type: FavoriteAdRemoval,
    authScopes: { writer: true },
    description: 'Deletes one saved ad by its saved id (DELETE /v1/favorites/ads/saved/{favoriteId}); audited before/null.',
    args: {
      favoriteId: t.arg.int({ required: true, validate: favoriteId }),
      scope: t.arg({ type: BoardScopeEnum, required: true, description: SCOPE_DESCRIPTION }),
    },
    resolve: (_root, args, context) => favoriteDelete(context, FAVORITE_ADS, args),
  }),
}));
favoriteFolderMutations(AD_FOLDERS);

builder.mutationFields((t) => ({
  favoriteAdFolderShare: t.field({
    type: FavoriteAdFolderShare,
    authScopes: { writer: true },
    description: 'Creates the share link of a favorite ad folder, or returns the existing one (POST /v1/favorites/ads/folders/{folderId}/share).',
    args: {
      folderId: t.arg.string({ required: true, validate: uuid }),
      scope: t.arg({ type: BoardScopeEnum, required: true, description: SCOPE_DESCRIPTION }),
    },
    resolve: (_root, args, context) => favoriteFolderShare(context, FAVORITE_ADS, args),
  }),
}));

builder.mutationFields((t) => ({
  favoriteShopAdd: t.field({
    type: FavoriteShopAddResult,
    authScopes: { writer: true },
    description: 'Saves a shop (POST /v1/favorites/shops) by websiteId (the shop uuid), at the root or in folderId. An already saved shop is returned with created false.',
    args: {
      scope: t.arg({ type: BoardScopeEnum, required: true, description: SCOPE_DESCRIPTION }),
      websiteId: t.arg.string({ required: true, description: 'The shop id (uuid).', validate: uuid }),
      folderId: t.arg.string({ description: 'A folder of the scope; null or omitted: the root.', validate: uuid }),
    },
    resolve: (_root, args, context, info) => favoriteAdd(context, FAVORITE_SHOPS, args, queryFromInfo({ context, info, path: ['data', 'shop'] })),
  }),
  favoriteShopRemove: t.field({
    type: FavoriteShopRemoval,
    authScopes: { writer: true },
    description: 'Removes a saved shop from the root or folderId (DELETE /v1/favorites/shops/{websiteId}); audited before/null.',
    args: {
      websiteId: t.arg.string({ required: true, validate: uuid }),
      scope: t.arg({ type: BoardScopeEnum, required: true, description: SCOPE_DESCRIPTION }),
      folderId: t.arg.string({ description: 'The folder it is saved in; omitted: the root.', validate: uuid }),
    },
    resolve: (_root, args, context) => favoriteRemove(context, FAVORITE_SHOPS, args),
  }),
  favoriteShopMove: t.field({
    type: FavoriteShop,
    authScopes: { writer: true },
    description: 'Moves one saved shop to a flat folder, or to the root with folderId null (PATCH /v1/favorites/shops/saved/{favoriteId}/folder).',
    args: {
      favoriteId: t.arg.string({ required: true, validate: uuid }),
      scope: t.arg({ type: BoardScopeEnum, required: true, description: SCOPE_DESCRIPTION }),
      folderId: t.arg.string({ description: 'The destination folder; null: the root.', validate: uuid }),
    },
    resolve: (_root, args, context, info) => favoriteMove(context, FAVORITE_SHOPS, args, queryFromInfo({ context, info, path: ['shop'] })),
  }),
  favoriteShopDelete: t.field({
    type: FavoriteShopRemoval,
    authScopes: { writer: true },
    description: 'Deletes one saved shop by its saved id (DELETE /v1/favorites/shops/saved/{favoriteId}); audited before/null.',
    args: {
      favoriteId: t.arg.string({ required: true, validate: uuid }),
      scope: t.arg({ type: BoardScopeEnum, required: true, description: SCOPE_DESCRIPTION }),
    },
    resolve: (_root, args, context) => favoriteDelete(context, FAVORITE_SHOPS, args),
  }),
}));
favoriteFolderMutations(SHOP_FOLDERS);

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
    resolve: (_root, args, context, info) => favoriteAdd(context, FAVORITE_EMAILS, args, queryFromInfo({ context, info, path: ['data', 'email'] })),
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
    resolve: (_root, args, context) => favoriteRemove(context, FAVORITE_EMAILS, args),
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
    resolve: (_root, args, context, info) => favoriteMove(context, FAVORITE_EMAILS, args, queryFromInfo({ context, info, path: ['email'] })),
  }),
  favoriteEmailDelete: t.field({
    type: FavoriteEmailRemoval,
    authScopes: { writer: true },
    description: 'Deletes one saved email by its saved id (DELETE /v1/favorites/emails/saved/{favoriteId}); audited before/null.',
    args: {
      favoriteId: t.arg.string({ required: true, validate: uuid }),
      scope: t.arg({ type: BoardScopeEnum, required: true, description: SCOPE_DESCRIPTION }),
    },
    resolve: (_root, args, context) => favoriteDelete(context, FAVORITE_EMAILS, args),
  }),
}));
favoriteFolderMutations(EMAIL_FOLDERS);
