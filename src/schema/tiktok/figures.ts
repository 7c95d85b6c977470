import { daysRunning as running } from '../shared/days-running.js';

// Figures derived from a TikTok item row; service/search.ts computes the same in SQL.

export type Running = { status: string; publishedAt: Date; lastSeenAt: Date };

/** Whole days from publication to now while active, else to when the item was last seen. */
export function daysRunning(item: Running, now = Date.now()): number {
  return running({ status: item.status, start: item.publishedAt, lastSeenAt: item.lastSeenAt, since2018: false }, now);
}

/** The public composite id of an item. */
export const compositeId = (tiktokId: string) => `tiktok_${tiktokId}`;

/** The TikTok id of a composite id (`tiktok_<number>`) or of a raw TikTok id; null when it is neither. */
export function tiktokIdOf(itemId: string): string | null {
  const raw = itemId.trim().replace(/^tiktok_/i, '');
  return /^\d{1,20}$/.test(raw) ? raw : null;
}

/** A shop's logo when its row has none: the one the server draws for it. */
export const shopLogoUrl = (shopId: string) => `/media/shops/${shopId}/logo.png`;
export const shopFaviconUrl = (domain: string) => `https://${domain}/favicon.ico`;
