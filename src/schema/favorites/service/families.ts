import type { Context } from '../../../context.js';
import type { Ad, BoardItem, Email, Prisma, Shop } from '../../../generated/prisma/client.js';
import { adsByIds, DEFAULT_CPM, normaliseAdId, withCpm } from '../../ads/service.js';
import { shopsByIds } from '../../shops/service.js';
import { ADS, EMAILS, SHOPS, type Family } from '../family.js';
import type { FavoriteRow } from './favorites.js';

// What differs between the favorites families beside their boards (family.ts): what a favorite saves (the argument
// naming it, its board item column), a favorite's public id, whether a target is saved once per scope, and the summary
// a favorite embeds. The operations (favorites.ts) are written once over these descriptors: a family more is one more.

/** A favorite's public id as a filter on its board item. */
export type SavedKey = { number: number } | { id: string };

/**
 * A favorites family: `Key` names the summary a favorite embeds (`ad`), `Summary` its type, `Argument` the argument
 * naming the saved target (`adId`, also its name in a removal's answer), `SavedId` a favorite's public id.
 */
export type FavoriteFamily<Key extends string, Summary extends { id: string | number }, Argument extends string, SavedId extends string | number> = Family & {
  /** The summary under `key`, loaded by id with a queryFromInfo selection (… → key); the ids distinct, never none. */
  summary: { key: Key; load(context: Context, ids: Summary['id'][], select: object): Promise<Summary[]> };
  /** The target as stored (`normalise`: what a removal looks for), the item's column that holds it (`of`, `where`). */
  target: {
    argument: Argument;
    normalise(id: Summary['id']): Summary['id'];
    of(item: BoardItem): Summary['id'] | null;
    where(id: Summary['id']): Prisma.BoardItemWhereInput;
  };
  /** A favorite's public id on its board item: the item's number (ads) or its uuid. */
  saved(id: SavedId): SavedKey;
  /** A target is saved once per scope: adding it again with another folder moves it there (emails). */
  oncePerScope: boolean;
};

/** A favorite with its folder and the summary of what it saves (null when that is gone). */
export type FavoriteRowOf<Key extends string, Summary> = FavoriteRow & { [K in Key]: Summary | null };

const byUuid = (id: string): SavedKey => ({ id: id.toLowerCase() });

export const FAVORITE_ADS = {
  ...ADS,
  summary: { key: 'ad', load: async (context: Context, ids: string[], select: object): Promise<Ad[]> => withCpm(await adsByIds(context.prisma, ids, select), DEFAULT_CPM) },
  target: { argument: 'adId', normalise: normaliseAdId, of: (item: BoardItem) => item.adId, where: (adId: string) => ({ adId }) },
  saved: (number: number): SavedKey => ({ number }),
  oncePerScope: false,
} satisfies FavoriteFamily<'ad', Ad, 'adId', number>;

export const FAVORITE_SHOPS = {
  ...SHOPS,
  summary: { key: 'shop', load: (context: Context, ids: string[], select: object) => shopsByIds<Shop>(context.prisma, ids, select) },
  target: { argument: 'websiteId', normalise: (id: string) => id.toLowerCase(), of: (item: BoardItem) => item.shopId, where: (shopId: string) => ({ shopId }) },
  saved: byUuid,
  oncePerScope: false,
} satisfies FavoriteFamily<'shop', Shop, 'websiteId', string>;

export const FAVORITE_EMAILS = {
  ...EMAILS,
  summary: {
    key: 'email',
    load: (context: Context, ids: number[], select: object): Promise<Email[]> =>
      context.prisma.email.findMany({ where: { id: { in: ids } }, relationLoadStrategy: 'join', ...(select as Prisma.EmailFindManyArgs) }),
  },
  target: { argument: 'emailId', normalise: (id: number) => id, of: (item: BoardItem) => item.emailId, where: (emailId: number) => ({ emailId }) },
  saved: byUuid,
  oncePerScope: true,
} satisfies FavoriteFamily<'email', Email, 'emailId', string>;

export type FavoriteAdRow = FavoriteRowOf<'ad', Ad>;
export type FavoriteShopRow = FavoriteRowOf<'shop', Shop>;
export type FavoriteEmailRow = FavoriteRowOf<'email', Email>;
