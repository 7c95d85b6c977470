import type { Context } from '../../context.js';
import { apiError, validationError } from '../../errors.js';
import { decodeImage, ImageRefused } from '../../data/images/decode.js';
import { fingerprint, type Fingerprint } from '../../data/images/fingerprint.js';
import { ownMediaPicture } from '../../data/images/media.js';
import { DecoderBusy } from '../../data/images/pool.js';
import { fetchImage, FetchRefused } from '../../net/fetch-image.js';
import { ownMediaPath } from '../shared/media-url.js';
import { workspaceDb } from '../shared/workspace.js';
import { findSearch, nearestProducts, nearestShops, storeSearch, type StoredSearch } from './service/search.js';

// The image-search domain's public face and the home of its SQL: POST /v1/products/image-search and
// POST /v1/shops/image-search fingerprint the request's image (uploaded, or fetched from a public URL by
// src/net/fetch-image.ts), find the nearest pictures and keep the ranked results (service/search.ts).

export { CANDIDATES, type StoredSearch } from './service/search.js';

export type ImageSearchArgs = { image?: string | null; imageUrl?: string | null; searchId?: string | null; offset?: number | null; limit?: number | null };

const BUSY_RETRY_AFTER_SECONDS = 1;

function bytesOf(image: string): Buffer {
  const base64 = image.replace(/^data:[^,]*;base64,/, '').replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(base64)) throw validationError([{ argument: 'image', expected: ['image must be a base64-encoded JPEG or PNG file'] }]);
  return Buffer.from(base64, 'base64');
}

/**
 * The picture at `imageUrl`. The server's own media (the demo market's and seed data's pictures, below
 * PUBLIC_BASE_URL/media/) is drawn here, as GET /media/... serves it: fetched, it would be refused as a private
 * address (localhost) by the SSRF guard. Any other URL is fetched under that guard.
 */
async function pictureAt(imageUrl: string, publicBaseUrl: string): Promise<Buffer> {
  const own = ownMediaPath(imageUrl, publicBaseUrl);
  if (own === null) return fetchImage(imageUrl);
  const picture = await ownMediaPicture(own);
  if (!picture) throw new FetchRefused(`imageUrl answered HTTP 404 (this server has no picture at ${own})`);
  return picture;
}

/** The fingerprint of the request's image; a 400 naming `image` or `imageUrl` when it cannot be had, a 429 while too many images wait to be decoded. */
async function fingerprintOfInput(args: { image?: string | null; imageUrl?: string | null }, publicBaseUrl: string): Promise<Fingerprint> {
  const argument = args.image != null ? 'image' : 'imageUrl';
  try {
    const bytes = args.image != null ? bytesOf(args.image) : await pictureAt(args.imageUrl!, publicBaseUrl);
    return fingerprint(await decodeImage(bytes));
  } catch (error) {
    if (error instanceof DecoderBusy) {
      throw apiError('rate_limited', 'Too many images are being searched at the moment. Retry after the Retry-After header.', { headers: { 'Retry-After': String(BUSY_RETRY_AFTER_SECONDS) } });
    }
    if (error instanceof ImageRefused || error instanceof FetchRefused) {
      throw validationError([{ argument, expected: [error.message.startsWith(argument) ? error.message : `${argument}: ${error.message}`] }]);
    }
    throw error;
  }
}

/** The kept search to page through (the one named by searchId, or a new one of the request's image), and the write that keeps a new one. */
export async function imageSearch(context: Context, kind: 'products' | 'shops', args: ImageSearchArgs, groupBrands: boolean): Promise<{ search: StoredSearch; stored?: Promise<unknown> }> {
  if (args.searchId) return { search: await findSearch(await workspaceDb(context), kind, args.searchId) };
  const { workspace } = await context.principal();
  const matches = await nearestProducts(context.pool, await fingerprintOfInput(args, context.publicBaseUrl));
  const results = kind === 'products' ? matches.map((m) => ({ id: m.productId, score: m.score })) : await nearestShops(context.prisma, matches, groupBrands);
  return storeSearch(context.pool, workspace.id, kind, groupBrands, results);
}
