import type { Plugin } from 'graphql-yoga';
import { notFoundFailure } from '../../rest/errors.js';
import { designOfKey, drawDesign, encodeJpeg, encodePng, SERVED_SIZE } from '../data/images/draw.js';
import { PLACEHOLDER_MP4 } from '../data/images/placeholder-video.js';
import { currentRequest, noteErrorCode } from './use-request-state.js';

// The server's own media: every picture of the demo market and of seed data, drawn on request from its path, so
// stored media URLs answer offline and the database holds no pixels. The path's key (a product design number, else
// an id) picks the design, its kind the size and format: an ad's thumbnail is its image, smaller; a shop's favicon
// is its logo. Every demo video answers one short placeholder clip. Open (like a CDN: an <img> sends no API key)
// and cacheable forever: a path always answers the same bytes.

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

const CACHE_SIZE = 64;
const CACHE_CONTROL = 'public, max-age=31536000, immutable';

function draw(kind: Kind, key: string): Buffer | null {
  if (kind.type === 'video/mp4') return PLACEHOLDER_MP4;
  const design = kind.design(key);
  if (design > 0x7fffffff) return null;
  const picture = drawDesign(design, kind.width, kind.height);
  return kind.type === 'image/png' ? encodePng(picture) : encodeJpeg(picture);
}

/** The single byte range of a Range header (what a <video> asks for), clamped to the body; null for anything else. */
function rangeOf(header: string | null, size: number): { start: number; end: number } | null {
  const match = header ? /^bytes=(\d*)-(\d*)$/.exec(header.trim()) : null;
  if (!match || (match[1] === '' && match[2] === '')) return null;
  const start = match[1] === '' ? Math.max(0, size - Number(match[2])) : Number(match[1]);
  const end = match[1] === '' || match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  return start <= end ? { start, end } : null;
}

export function useMedia(): Plugin {
  const cache = new Map<string, { type: Kind['type']; body: Buffer }>();
  const mediaOf = (pathname: string) => {
    const cached = cache.get(pathname);
    if (cached) return cached;
    for (const kind of KINDS) {
      const match = kind.path.exec(pathname);
      if (!match) continue;
      const body = draw(kind, match[1]);
      if (!body) return null;
      if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!);
      const media = { type: kind.type, body };
      cache.set(pathname, media);
      return media;
    }
    return null;
  };
  return {
    onRequest({ url, request, endResponse, fetchAPI }) {
      if (!url.pathname.startsWith('/media/')) return;
      const media = request.method === 'GET' || request.method === 'HEAD' ? mediaOf(url.pathname) : null;
      if (!media) {
        const { status, body } = notFoundFailure(`No media ${request.method} ${url.pathname}.`, currentRequest()?.requestId ?? '');
        noteErrorCode(body.error.code);
        endResponse(fetchAPI.Response.json(body, { status }));
        return;
      }
      const size = media.body.length;
      const range = rangeOf(request.headers.get('range'), size);
      const bytes = range ? media.body.subarray(range.start, range.end + 1) : media.body;
      const headers: Record<string, string> = { 'content-type': media.type, 'content-length': String(bytes.length), 'cache-control': CACHE_CONTROL, 'accept-ranges': 'bytes' };
      if (range) headers['content-range'] = `bytes ${range.start}-${range.end}/${size}`;
      endResponse(new fetchAPI.Response(request.method === 'HEAD' ? null : new Uint8Array(bytes), { status: range ? 206 : 200, headers }));
    },
  };
}
