// Figures derived from a TikTok item row; search.ts computes the same in SQL.

const DAY_MS = 86_400_000;

export type Running = { status: string; publishedAt: Date; lastSeenAt: Date };

/** Whole days from publication to now while active, else to when the item was last seen. */
export function daysRunning(item: Running, now = Date.now()): number {
  const end = item.status === 'active' ? now : item.lastSeenAt.getTime();
  return Math.max(0, Math.floor((end - item.publishedAt.getTime()) / DAY_MS));
}

/** The public composite id of an item. */
export const compositeId = (tiktokId: string) => `tiktok_${tiktokId}`;

/** The TikTok id of a composite id (`tiktok_<number>`) or of a raw TikTok id; null when it is neither. */
export function tiktokIdOf(itemId: string): string | null {
  const raw = itemId.trim().replace(/^tiktok_/i, '');
  return /^\d{1,20}$/.test(raw) ? raw : null;
}

export const shopLogoUrl = (shopId: string) => `https://cdn.example.com/shops/${shopId}.png`;
export const shopFaviconUrl = (domain: string) => `https://${domain}/favicon.ico`;
