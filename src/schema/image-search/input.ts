import { z } from 'zod';
import { apiError, validationError } from '../../errors.js';
import { decodeImage, ImageRefused } from '../../data/images/decode.js';
import { fingerprint, type Fingerprint } from '../../data/images/fingerprint.js';
import { DecoderBusy } from '../../data/images/pool.js';
import { builder } from '../builder.js';
import { CANDIDATES } from './search.js';
import { fetchImage, FetchRefused } from './fetch.js';

// The image a search starts from: uploaded (multipart on REST, base64 on GraphQL) or fetched from `imageUrl`;
// or a kept search to continue (`searchId`). Exactly one of the three.

export const imageSearchArgs = () =>
  builder.args((t) => ({
    image: t.string({
      description: 'The image, base64-encoded (a data: URL is accepted), JPEG or PNG. On REST, send it as the multipart file field `image` (or `file`) instead. The request body is at most 1 MiB.',
      validate: z.string().min(1),
    }),
    imageUrl: t.string({
      description: 'An http(s) URL of the image, fetched by the server (public addresses only, 5 s, 5 MB).',
      validate: z.string().max(2048),
    }),
    searchId: t.string({ description: "A previous answer's meta.searchId: its results from `offset` (searches are kept 60 minutes).", validate: z.uuid({ message: '{name} must be a UUID' }) }),
    offset: t.int({ defaultValue: 0, description: 'Results to skip, from 0.', validate: z.number().int().min(0).max(CANDIDATES) }),
    limit: t.int({ defaultValue: 20, description: 'Results to return, 1..50 (default 20).', validate: z.number().int().min(1).max(50) }),
  }));

/** Exactly one of image, imageUrl, searchId. */
export const oneSource = z.looseObject({}).superRefine((raw, ctx) => {
  const args = raw as { image?: string | null; imageUrl?: string | null; searchId?: string | null };
  const given = (['image', 'imageUrl', 'searchId'] as const).filter((name) => args[name] != null);
  if (given.length === 0) ctx.addIssue({ code: 'custom', path: ['image'], message: '{name} should not be empty: send an image, an imageUrl or a searchId' });
  if (given.length > 1) ctx.addIssue({ code: 'custom', path: [given[1]], message: `{name} must not be sent together with ${given[0]}` });
});

const BUSY_RETRY_AFTER_SECONDS = 1;

function bytesOf(image: string): Buffer {
  const base64 = image.replace(/^data:[^,]*;base64,/, '').replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(base64)) throw validationError([{ argument: 'image', expected: ['image must be a base64-encoded JPEG or PNG file'] }]);
  return Buffer.from(base64, 'base64');
}

/** The fingerprint of the request's image; a 400 naming `image` or `imageUrl` when it cannot be had, a 429 while too many images wait to be decoded. */
export async function fingerprintOfInput(args: { image?: string | null; imageUrl?: string | null }): Promise<Fingerprint> {
  const argument = args.image != null ? 'image' : 'imageUrl';
  try {
    const bytes = args.image != null ? bytesOf(args.image) : await fetchImage(args.imageUrl!);
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
