import type { Prisma } from '../../generated/prisma/client.js';
import { visibleBoards, type Actor, type ScopeKey } from '../boards/service.js';

// The three favorites families are one vocabulary over boards: a family's folders are the active folder boards of
// its surface, its favorites the board items of its type (at the root when boardId is null). Folder ids are board
// ids; favorite ids are board item ids (the item's number for ads, its uuid for shops and emails).

export type Family = {
  name: 'ads' | 'shops' | 'emails';
  surface: 'ads' | 'shops' | 'emails';
  itemType: 'ad' | 'shop' | 'email';
  /** Folders nest (ads, emails); shop folders are flat. */
  hierarchy: boolean;
};

export const ADS: Family = { name: 'ads', surface: 'ads', itemType: 'ad', hierarchy: true };
export const SHOPS: Family = { name: 'shops', surface: 'shops', itemType: 'shop', hierarchy: false };
export const EMAILS: Family = { name: 'emails', surface: 'emails', itemType: 'email', hierarchy: true };

/** The family's folders of a scope the caller sees. */
export function folderWhere(actor: Actor, key: ScopeKey, family: Family): Prisma.BoardWhereInput {
  return { AND: [visibleBoards(actor, key), { surface: family.surface, kind: 'folder', archivedAt: null }] };
}

/** The family's favorites of a scope the caller sees: at the root, or in one of its visible folders. */
export function favoriteWhere(actor: Actor, key: ScopeKey, family: Family): Prisma.BoardItemWhereInput {
  return { ...key, itemType: family.itemType, OR: [{ boardId: null }, { board: folderWhere(actor, key, family) }] };
}

/** What a 404 of a family's folder names. */
export const folderNamed = (family: Family) => `The favorite ${family.name} folder`;
