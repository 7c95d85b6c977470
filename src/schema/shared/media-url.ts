import { Prisma } from '../../generated/prisma/client.js';

/** Where the server serves the media it makes itself (demo and seed data): `/media/...` below its own address. */
export const MEDIA_PATH = '/media';

/** A stored media URL as clients see it: a path of the server's own media (`/media/...`) becomes an absolute URL; any other URL (imported data) is kept. */
export function mediaUrl(stored: string, publicBaseUrl: string): string;
export function mediaUrl(stored: string | null, publicBaseUrl: string): string | null;
export function mediaUrl(stored: string | null, publicBaseUrl: string): string | null {
  return stored !== null && stored.startsWith(`${MEDIA_PATH}/`) ? `${publicBaseUrl}${stored}` : stored;
}

/** A field resolver that answers the parent's stored URL through mediaUrl: `t.string({ resolve: resolveMediaUrl((ad) => ad.mediaUrl) })`. */
export function resolveMediaUrl<P, U extends string | null>(read: (parent: P) => U) {
  // mediaUrl keeps null as null and a string as a string, so the stored type is the answered type.
  return (parent: P, _args: unknown, context: { publicBaseUrl: string }): U => mediaUrl(read(parent), context.publicBaseUrl) as U;
}

/**
 * The path of the server's own media an absolute URL names (`<publicBaseUrl>/media/...` → `/media/...`), or null for
 * any other URL: what mediaUrl made, read back.
 */
export function ownMediaPath(url: string, publicBaseUrl: string): string | null {
  try {
    const parsed = new URL(url);
    return parsed.origin === new URL(publicBaseUrl).origin && parsed.pathname.startsWith(`${MEDIA_PATH}/`) ? parsed.pathname : null;
  } catch {
    return null;
  }
}

/** resolveMediaUrl for a list of stored URLs. */
export function resolveMediaUrls<P>(read: (parent: P) => string[]) {
  return (parent: P, _args: unknown, context: { publicBaseUrl: string }): string[] => read(parent).map((url) => mediaUrl(url, context.publicBaseUrl));
}

/**
 * HTML the server stored with its own media (demo emails: `<img src="/media/...">`) as clients see it: those
 * attributes become absolute URLs. A relative URL means nothing in a captured email, so no imported one is changed.
 */
export function htmlMediaUrls(html: string, publicBaseUrl: string): string {
  return html.replaceAll(`src="${MEDIA_PATH}/`, `src="${publicBaseUrl}${MEDIA_PATH}/`);
}

/** mediaUrl in SQL, for rows PostgreSQL writes as JSON (exports): `column` (text) as clients see it, `base` the public base URL. */
export function mediaUrlSql(column: string, base: Prisma.Sql): Prisma.Sql {
  const stored = Prisma.raw(column);
  return Prisma.sql`(CASE WHEN left(${stored}, ${Prisma.raw(String(MEDIA_PATH.length + 1))}) = ${Prisma.raw(`'${MEDIA_PATH}/'`)} THEN ${base} || ${stored} ELSE ${stored} END)`;
}
