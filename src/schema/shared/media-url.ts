/** Where the server serves the images it draws itself (demo and seed data): `/media/...` below its own address. */
export const MEDIA_PATH = '/media';

/** A stored image URL as clients see it: a path of the server's own media (`/media/...`) becomes an absolute URL. */
export function mediaUrl(stored: string | null, publicBaseUrl: string): string | null {
  return stored !== null && stored.startsWith(`${MEDIA_PATH}/`) ? `${publicBaseUrl}${stored}` : stored;
}
