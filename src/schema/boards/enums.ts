import { builder } from '../builder.js';

export const BoardScopeEnum = builder.enumType('BoardScope', {
  values: ['workspace', 'personal'] as const,
  description: "workspace: the workspace's shared boards and favorites; personal: the delegated user's own (delegated-user keys only).",
});
export const BoardStateEnum = builder.enumType('BoardState', { values: ['active', 'archived'] as const });
export const BoardKindEnum = builder.enumType('BoardKind', {
  values: ['folder', 'collection'] as const,
  description: 'folder; collection is deprecated and creates (and lists) mixed folders.',
});
export const BoardSurfaceEnum = builder.enumType('BoardSurface', {
  values: ['ads', 'shops', 'landing', 'emails', 'products', 'advertisers', 'mixed'] as const,
  description: 'The content a board accepts; mixed accepts every type.',
});
export const BoardVisibilityEnum = builder.enumType('BoardVisibility', {
  values: ['private', 'workspace', 'public'] as const,
  description: 'private: its creator (and full-access keys); workspace: every key of the workspace; public: also anyone with its share link.',
});
export const BoardItemTypeEnum = builder.enumType('BoardItemType', {
  values: ['ad', 'shop', 'email', 'product', 'advertiser', 'landing'] as const,
});

export type BoardScope = 'workspace' | 'personal';
export type BoardSurface = (typeof BoardSurfaceEnum)['$inferType'];
export type BoardItemType = (typeof BoardItemTypeEnum)['$inferType'];

/** The item type a single-surface board accepts (mixed boards accept every type). */
export const SURFACE_ITEM_TYPE: Record<Exclude<BoardSurface, 'mixed'>, BoardItemType> = {
  ads: 'ad', shops: 'shop', landing: 'landing', emails: 'email', products: 'product', advertisers: 'advertiser',
};
