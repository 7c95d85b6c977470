import type { Plugin } from 'graphql-yoga';
import { methodNotAllowedFailure, notFoundFailure, restErrorFrom } from '../../rest/errors.js';
import { mediaKindOf, renderMedia, type MediaKind } from '../data/images/media.js';
import { DecoderBusy } from '../data/images/pool.js';
import { apiError } from '../errors.js';
import type { RateLimiter } from '../metering/rate-limit.js';
import { currentRequest, noteErrorCode } from './use-request-state.js';

// The server's own media: every picture of the demo market and of seed data, drawn on request from its path, so
// stored media URLs answer offline and the database holds no pixels. What a path names (its kind and design) and
// how it is made are in data/images/media.ts: an ad's thumbnail is its image, smaller; a shop's favicon is its logo;
// every demo video is one short placeholder clip. Open (like a CDN: an <img> sends no API key) and cacheable forever:
// a path always answers the same bytes. Pictures are encoded by libvips off the event loop (data/images/decode.ts)
// and kept in a small LRU; one that has to be made takes a token from its client address's
// bucket (429 once empty), so a client cycling through paths cannot keep the server drawing.

/** Pictures kept once made, least recently used out first: ~256 × 30 KB at most. */
const CACHE_SIZE = 256;
const CACHE_CONTROL = 'public, max-age=31536000, immutable';

type Media = { type: MediaKind['type']; body: Buffer };

/** The single byte range of a Range header (what a <video> asks for), clamped to the body; 'unsatisfiable' past its end; null for anything else (the whole body). */
function rangeOf(header: string | null, size: number): { start: number; end: number } | 'unsatisfiable' | null {
  const match = header ? /^bytes=(\d{0,15})-(\d{0,15})$/.exec(header.trim()) : null;
  if (!match || (match[1] === '' && match[2] === '')) return null;
  if (match[1] === '') {
    const suffix = Number(match[2]);
    return suffix === 0 ? 'unsatisfiable' : { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(match[1]);
  if (start >= size) return 'unsatisfiable';
  const end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  return start <= end ? { start, end } : null;
}

export function useMedia(options: { rateLimiter: RateLimiter }): Plugin {
  const cache = new Map<string, Media>();
  const remember = (pathname: string, media: Media) => {
    if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!);
    cache.set(pathname, media);
  };
  return {
    async onRequest({ url, request, endResponse, fetchAPI }) {
      if (!url.pathname.startsWith('/media/')) return;
      const state = currentRequest();
      const fail = (failure: { status: number; headers: Record<string, string>; body: ReturnType<typeof notFoundFailure>['body'] }) => {
        noteErrorCode(failure.body.error.code);
        endResponse(fetchAPI.Response.json(failure.body, { status: failure.status, headers: failure.headers }));
      };
      const notFound = () => fail({ ...notFoundFailure(`No media ${request.method} ${url.pathname}.`, state?.requestId ?? ''), headers: {} });
      const found = mediaKindOf(url.pathname);
      if (!found) return notFound();
      if (request.method !== 'GET' && request.method !== 'HEAD') return fail(methodNotAllowedFailure(request.method, url.pathname, ['GET', 'HEAD'], state?.requestId ?? ''));
      let media = cache.get(url.pathname);
      if (media) {
        cache.delete(url.pathname); // most recently used last
        cache.set(url.pathname, media);
      } else {
        if (found.kind.type !== 'video/mp4') {
          const refused = await options.rateLimiter.mediaDraw(state?.clientAddress ?? 'unknown');
          if (refused) return fail(restErrorFrom([refused], state?.requestId ?? '', undefined));
        }
        let body: Buffer | null;
        try {
          body = await renderMedia(found.kind, found.key);
        } catch (error) {
          if (!(error instanceof DecoderBusy)) throw error;
          return fail(restErrorFrom([apiError('rate_limited', 'Too many pictures are being drawn. Retry after 1 s.', { headers: { 'Retry-After': '1' } })], state?.requestId ?? '', undefined));
        }
        if (!body) return notFound();
        media = { type: found.kind.type, body };
        remember(url.pathname, media);
      }
      const size = media.body.length;
      const range = rangeOf(request.headers.get('range'), size);
      const headers: Record<string, string> = { 'content-type': media.type, 'cache-control': CACHE_CONTROL, 'accept-ranges': 'bytes' };
      if (range === 'unsatisfiable') {
        endResponse(new fetchAPI.Response(null, { status: 416, headers: { ...headers, 'content-range': `bytes */${size}` } }));
        return;
      }
      const bytes = range ? media.body.subarray(range.start, range.end + 1) : media.body;
      headers['content-length'] = String(bytes.length);
      if (range) headers['content-range'] = `bytes ${range.start}-${range.end}/${size}`;
      endResponse(new fetchAPI.Response(request.method === 'HEAD' ? null : new Uint8Array(bytes), { status: range ? 206 : 200, headers }));
    },
  };
}
