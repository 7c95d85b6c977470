import type { Plugin } from 'graphql-yoga';
import { notFoundFailure } from '../../rest/errors.js';
import { drawDesign, encodeJpeg, SERVED_SIZE } from '../data/images/draw.js';
import { currentRequest, noteErrorCode } from './use-request-state.js';

// The server's own media: the pictures of demo and seed data, drawn on request from the design number in their
// path (GET /media/products/<design>.jpg), so stored image URLs answer offline and the database holds no pixels.
// Open (like a CDN: an <img> sends no API key) and cacheable forever: a design always draws the same picture.

const PRODUCT_IMAGE = /^\/media\/products\/(\d{1,10})\.jpg$/;
const CACHE_SIZE = 64;

export function useMedia(): Plugin {
  const cache = new Map<number, Buffer>();
  const imageOf = (design: number) => {
    let jpeg = cache.get(design);
    if (!jpeg) {
      jpeg = encodeJpeg(drawDesign(design, SERVED_SIZE));
      if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!);
      cache.set(design, jpeg);
    }
    return jpeg;
  };
  return {
    onRequest({ url, request, endResponse, fetchAPI }) {
      if (!url.pathname.startsWith('/media/')) return;
      const match = PRODUCT_IMAGE.exec(url.pathname);
      const design = match ? Number(match[1]) : NaN;
      if (!match || design > 0x7fffffff || (request.method !== 'GET' && request.method !== 'HEAD')) {
        const { status, body } = notFoundFailure(`No media ${request.method} ${url.pathname}.`, currentRequest()?.requestId ?? '');
        noteErrorCode(body.error.code);
        endResponse(fetchAPI.Response.json(body, { status }));
        return;
      }
      const jpeg = imageOf(design);
      endResponse(new fetchAPI.Response(request.method === 'HEAD' ? null : new Uint8Array(jpeg), {
        status: 200,
        headers: { 'content-type': 'image/jpeg', 'content-length': String(jpeg.length), 'cache-control': 'public, max-age=31536000, immutable' },
      }));
    },
  };
}
