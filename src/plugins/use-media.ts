import type { Plugin } from 'graphql-yoga';
import { notFoundFailure, restErrorFrom } from '../../rest/errors.js';
import { DecoderBusy } from '../data/images/pool.js';
import { encodeImage } from '../data/images/decode.js';
import { designOfKey, drawDesign, SERVED_SIZE } from '../data/images/draw.js';
import { apiError } from '../errors.js';
import type { RateLimiter } from '../metering/rate-limit.js';
import { PLACEHOLDER_MP4 } from '../data/images/placeholder-video.js';
import { currentRequest, noteErrorCode } from './use-request-state.js';

// The server's own media: every picture of the demo market and of seed data, drawn on request from its path, so
// stored media URLs answer offline and the database holds no pixels. The path's key (a product design number, else
// an id) picks the design, its kind the size and format: an ad's thumbnail is its image, smaller; a shop's favicon
// is its logo. Every demo video answers one short placeholder clip. Open (like a CDN: an <img> sends no API key)
// and cacheable forever: a path always answers the same bytes. Pictures are encoded by libvips off the event loop
// (data/images/decode.ts) and kept in a small LRU; one that has to be made takes a token from its client address's
// bucket (429 once empty), so a client cycling through paths cannot keep the server drawing.

type Kind = { path: RegExp; type: 'image/jpeg' | 'image/png' | 'video/mp4'; width: number; height: number; design: (key: string) => number };

const KEY = '([\\w-]{1,64})';
const kind = (path: string, type: Kind['type'], width = 0, height = width): Kind => ({ path: new RegExp(`^/media/${path}$`), type, width, height, design: designOfKey });
const jpeg = (path: string, width: number, height = width) => kind(path, 'image/jpeg', width, height);
const png = (path: string, width: number, height = width) => kind(path, 'image/png', width, height);

const KINDS: Kind[] = [
  { ...jpeg('products/(\\d{1,10})\\.jpg', SERVED_SIZE), design: Number },
  jpeg('products/(\\d{1,20}/ads/\\d{1,2})\\.jpg', 240),
  jpeg(`ads/${KEY}-thumb\\.jpg`, 160),
  jpeg(`ads/${KEY}\\.jpg`, 480),
  kind(`ads/${KEY}\\.mp4`, 'video/mp4'),
  png(`pages/${KEY}\\.png`, 128),
  png(`shops/${KEY}/logo\\.png`, 128),
  png(`shops/${KEY}/favicon\\.png`, 32),
  jpeg(`shops/${KEY}/screenshot\\.jpg`, 360, 720),
  jpeg(`landing-pages/${KEY}/desktop\\.jpg`, 480, 800),
  jpeg(`landing-pages/${KEY}/mobile\\.jpg`, 240, 520),
  jpeg(`landing-pages/${KEY}/head\\.jpg`, 480, 270),
  jpeg(`emails/screenshots/${KEY}\\.jpg`, 300, 900),
  png(`emails/${KEY}/logo\\.png`, 160, 80),
  jpeg('emails/([\\w-]{1,64}/[a-z0-9-]{1,100})\\.jpg', 160),
  jpeg(`tiktok/avatars/${KEY}\\.jpg`, 128),
  jpeg(`tiktok/${KEY}-cover\\.jpg`, 270, 480),
  jpeg(`tiktok/${KEY}\\.jpg`, 270, 480),
  kind(`tiktok/${KEY}\\.mp4`, 'video/mp4'),
  png(`google/advertisers/${KEY}\\.png`, 128),
  png(`google/${KEY}\\.png`, 300, 250),
  kind(`google/${KEY}\\.mp4`, 'video/mp4'),
  png('facets/(?:apps|technologies|pixels)/([a-z0-9-]{1,64})\\.png', 64),
];

/** Pictures kept once made, least recently used out first: ~256 × 30 KB at most. */
const CACHE_SIZE = 256;
const CACHE_CONTROL = 'public, max-age=31536000, immutable';

type Media = { type: Kind['type']; body: Buffer };

/** The kind a path names and its key, or null. */
function kindOf(pathname: string): { kind: Kind; key: string } | null {
  for (const kind of KINDS) {
    const match = kind.path.exec(pathname);
    if (match) return { kind, key: match[1] };
  }
  return null;
}

async function render(kind: Kind, key: string): Promise<Buffer | null> {
  if (kind.type === 'video/mp4') return PLACEHOLDER_MP4;
  const design = kind.design(key);
  if (design > 0x7fffffff) return null;
  return encodeImage(drawDesign(design, kind.width, kind.height), kind.type === 'image/png' ? 'png' : 'jpeg');
}

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
      const found = request.method === 'GET' || request.method === 'HEAD' ? kindOf(url.pathname) : null;
      if (!found) return notFound();
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
          body = await render(found.kind, found.key);
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
