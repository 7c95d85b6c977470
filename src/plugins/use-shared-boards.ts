import type { Plugin } from 'graphql-yoga';
import type { PrismaClient } from '../db/client.js';
import { errorBody } from '../errors.js';
import { sharedBoardPage } from '../schema/boards/service.js';
import { currentRequest } from './use-request-state.js';

// The share links of boards (and favorite ad folders) answer here, outside /v1: GET /share/boards/{slug}, no key,
// read-only, `{ requestId, data{ board, items[] }, pagination }` with `page` and `limit` (1..100, default 25).

const PATH = /^\/share\/boards\/([A-Za-z0-9_-]{1,64})$/;
const INT = /^\d{1,9}$/;

export function useSharedBoards(prisma: PrismaClient): Plugin {
  return {
    async onRequest({ request, url, endResponse, fetchAPI }) {
      if (!url.pathname.startsWith('/share/boards/')) return;
      const requestId = currentRequest()?.requestId ?? '';
      const json = (body: unknown, status = 200) => endResponse(fetchAPI.Response.json(body, { status }));
      const match = PATH.exec(url.pathname);
      if (request.method !== 'GET') return json(errorBody('method_not_allowed', 'Share links are read-only: use GET.', requestId), 405);
      const page = url.searchParams.get('page') ?? '1';
      const limit = url.searchParams.get('limit') ?? '25';
      const violations = [
        ...(INT.test(page) && Number(page) >= 1 ? [] : [{ field: 'query-string.page', location: 'query-string', expected: ['page must not be less than 1'] }]),
        ...(INT.test(limit) && Number(limit) >= 1 && Number(limit) <= 100 ? [] : [{ field: 'query-string.limit', location: 'query-string', expected: ['limit must be an integer from 1 to 100'] }]),
      ];
      if (violations.length) return json(errorBody('validation_error', `Invalid request: ${violations.flatMap((v) => v.expected).join('; ')}`, requestId, { validationErrors: violations }), 400);
      const shared = match ? await sharedBoardPage(prisma, match[1], { page: Number(page), limit: Number(limit) }) : null;
      if (!shared) return json(errorBody('not_found', 'This share link does not exist or no longer answers.', requestId), 404);
      return json({ requestId, ...shared });
    },
  };
}
