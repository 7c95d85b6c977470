import type { Plugin } from 'graphql-yoga';
import { methodNotAllowedFailure, notFoundFailure, restErrorFrom, validationFailure } from '../../rest/errors.js';
import type { PrismaClient } from '../db/client.js';
import type { RateLimiter } from '../metering/rate-limit.js';
import { sharedAdPage, type SharedAdPage } from '../schema/ads/service.js';
import { sharedBoardPage, type SharedBoardPage } from '../schema/boards/service.js';
import { errorResponse, escapeHtml, htmlPage, htmlResponse, jsonResponse, SERVER_NAME, wantsHtml } from './pages.js';
import { currentRequest } from './use-request-state.js';

// The share links the API creates answer here, outside /v1, without a key, read-only (GET and HEAD): a page for a
// browser, JSON for any other client.
// - GET /share/boards/{slug} (boards and favorite ad folders): `{ requestId, data{ board, items[] }, pagination }`,
//   with `page` and `limit` (1..100, default 25);
// - GET /share/ads/{slug}: `{ requestId, data{ ad, sharedAt } }`.
// A slug that no share has (never made, revoked, its board no longer public) is a 404 not_found. Each page read takes a
// token of its client address's bucket (RateLimiter.sharePage): past it, 429 rate_limited with Retry-After.

const PATH = /^\/share\/(boards|ads)\/([A-Za-z0-9_-]{1,64})$/;
const INT = /^\d{1,9}$/;
const ALLOWED = ['GET', 'HEAD'];
const GONE = 'This share link does not exist or no longer answers.';

const date = (value: Date | null) => (value ? value.toISOString().slice(0, 10) : '—');
/** An href only for http(s): a stored URL is never a `javascript:` link. */
const safeUrl = (url: string | null) => (url && /^https?:\/\//i.test(url) ? escapeHtml(url) : null);

function boardHtml(shared: SharedBoardPage, url: URL): string {
  const { board, items } = shared.data;
  const { page, totalPages } = shared.pagination;
  const link = (to: number, text: string) => {
    const next = new URL(url);
    next.searchParams.set('page', String(to));
    return `<a href="${escapeHtml(next.pathname + next.search)}">${text}</a>`;
  };
  const rows = items.map((item) => `<tr><td>${escapeHtml(item.type)}</td><td><code>${escapeHtml(item.targetId)}</code></td><td>${escapeHtml(item.note ?? '')}</td><td>${date(item.createdAt)}</td></tr>`);
  return htmlPage(`${board.name} · ${SERVER_NAME}`, `<h1>${escapeHtml(board.name)}</h1>
<p class="muted">A shared ${escapeHtml(board.surface)} board · updated ${date(board.updatedAt)}</p>
${board.description ? `<p>${escapeHtml(board.description)}</p>` : ''}
${rows.length ? `<table><tr><th>Type</th><th>Id</th><th>Note</th><th>Added</th></tr>${rows.join('')}</table>` : '<p>No items.</p>'}
<p class="muted">Page ${page} of ${Math.max(totalPages, 1)} ${page > 1 ? link(page - 1, '← previous') : ''} ${page < totalPages ? link(page + 1, 'next →') : ''}</p>`);
}

function adHtml(shared: SharedAdPage): string {
  const { ad, sharedAt } = shared.data;
  const { media, content } = ad;
  const picture = safeUrl(media.type === 'video' ? media.thumbnailUrl : (media.mediaUrl ?? media.thumbnailUrl));
  const video = media.type === 'video' ? safeUrl(media.mediaUrl) : null;
  const landing = safeUrl(content.landingPageUrl);
  const creative = video
    ? `<video controls preload="none" src="${video}"${picture ? ` poster="${picture}"` : ''} width="480"></video>`
    : picture ? `<img src="${picture}" alt="${escapeHtml(content.title ?? ad.advertiser.name)}" width="480">` : '';
  return htmlPage(`${ad.advertiser.name} · ${SERVER_NAME}`, `<h1>${escapeHtml(ad.advertiser.name)}</h1>
<p class="muted">A shared ${escapeHtml(ad.platform)} ad <code>${escapeHtml(ad.id)}</code> · ${escapeHtml(ad.status)} · seen ${date(ad.firstSeenAt)} to ${ad.lastSeenAt ? date(ad.lastSeenAt) : 'today'}</p>
${creative}
${content.title ? `<h2>${escapeHtml(content.title)}</h2>` : ''}
${content.body ? `<p>${escapeHtml(content.body).replaceAll('\n', '<br>')}</p>` : ''}
${landing ? `<p><a href="${landing}" rel="nofollow noopener noreferrer">${escapeHtml(content.callToAction ?? content.landingPageDomain ?? 'Landing page')}</a></p>` : ''}
<p class="muted">Shared ${date(sharedAt)}</p>`);
}

export function useSharePages(prisma: PrismaClient, options: { publicBaseUrl: string; rateLimiter: RateLimiter }): Plugin {
  return {
    async onRequest({ request, url, endResponse }) {
      if (!url.pathname.startsWith('/share/')) return;
      const state = currentRequest();
      const requestId = state?.requestId ?? '';
      const match = PATH.exec(url.pathname);
      const kind = match?.[1] as 'boards' | 'ads' | undefined;
      if (state && kind) state.route = `/share/${kind}/:slug`;
      if (kind && !ALLOWED.includes(request.method)) return endResponse(errorResponse(request, methodNotAllowedFailure(request.method, url.pathname, ALLOWED, requestId)));
      if (kind) {
        const refused = await options.rateLimiter.sharePage(state?.clientAddress ?? 'unknown');
        if (refused) return endResponse(errorResponse(request, restErrorFrom([refused], requestId, undefined)));
      }
      let shared: { json: object; html: () => string } | null = null;
      if (kind === 'boards') {
        const page = url.searchParams.get('page') ?? '1';
        const limit = url.searchParams.get('limit') ?? '25';
        const violations = [
          ...(INT.test(page) && Number(page) >= 1 ? [] : [{ argument: 'page', location: 'query-string' as const, expected: ['page must not be less than 1'] }]),
          ...(INT.test(limit) && Number(limit) >= 1 && Number(limit) <= 100 ? [] : [{ argument: 'limit', location: 'query-string' as const, expected: ['limit must be an integer from 1 to 100'] }]),
        ];
        if (violations.length) return endResponse(errorResponse(request, validationFailure(violations, requestId)));
        const board = await sharedBoardPage(prisma, match![2], { page: Number(page), limit: Number(limit) });
        if (board) shared = { json: board, html: () => boardHtml(board, url) };
      } else if (kind === 'ads') {
        const ad = await sharedAdPage(prisma, match![2], options.publicBaseUrl);
        if (ad) shared = { json: ad, html: () => adHtml(ad) };
      }
      if (!shared) return endResponse(errorResponse(request, notFoundFailure(GONE, requestId)));
      if (wantsHtml(request)) return endResponse(htmlResponse(request, shared.html));
      endResponse(jsonResponse(request, { requestId, ...shared.json }));
    },
  };
}
