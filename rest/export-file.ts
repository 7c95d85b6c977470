import type pg from 'pg';
import type { Plugin } from 'graphql-yoga';
import type { Authenticator } from '../src/auth/authenticate.js';
import { apiError, notFound } from '../src/errors.js';
import type { RateLimiter } from '../src/metering/rate-limit.js';
import type { Logger } from '../src/observability/logger.js';
import { currentRequest, noteErrorCode } from '../src/plugins/use-request-state.js';
import { CONTENT_TYPES, EXTENSIONS, exportFile, FileGone } from '../src/schema/exports/service.js';
import { restErrorFrom, validationFailure, type RestError } from './errors.js';
import { BASE_PATH } from './plugin.js';
import { EXPORT_FILE_ROUTE as ROUTE } from './routes.js';

// GET /v1/exports/{exportId}/file: a finished export's file, streamed from EXPORT_DIR (REST only: a file has no JSON
// envelope, so it is not in the route table). The caller's key and workspace as for every route; another workspace's
// export is a missing one (404), as is one whose file is gone (cancelled, expired, failed); a queued or running one is a
// 409 conflict. `Range: bytes=…` (one range) is answered 206 with Content-Range, an unsatisfiable one 416; `If-Range`
// and `If-None-Match` follow the ETag. Content-Type per format; Content-Disposition names the file.

const PATTERN = new RegExp(`^${BASE_PATH}/exports/([^/]+)/file$`);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The byte range `header` asks for within `size`: null to send it all, 'unsatisfiable' for a 416. */
export function byteRange(header: string | null, size: number): { start: number; end: number } | 'unsatisfiable' | null {
  if (!header) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return null; // several ranges or another unit: the whole file
  if (match[1] === '') {
    const suffix = Number(match[2]);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(match[1]);
  const end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  if (start >= size || end < start) return 'unsatisfiable';
  return { start, end };
}

export function useExportFile(options: { pool: pg.Pool; authenticate: Authenticator; rateLimiter: RateLimiter; logger?: Logger }): Plugin {
  return {
    async onRequest({ request, url, endResponse, fetchAPI }) {
      const found = PATTERN.exec(url.pathname);
      if (!found || (request.method !== 'GET' && request.method !== 'HEAD')) return;
      const state = currentRequest()!;
      state.route = `${BASE_PATH}${ROUTE.path}`;
      state.rest = true;
      const refuse = (failure: RestError) => {
        noteErrorCode(failure.body.error.code);
        if (failure.body.error.code === 'internal_error') options.logger?.error({ requestId: state.requestId }, 'internal error serving an export file');
        endResponse(fetchAPI.Response.json(failure.body, { status: failure.status, headers: { ...failure.headers, ...Object.fromEntries(state.responseHeaders) } }));
      };
      let workspaceId: string;
      try {
        const principal = await (state.principal ??= options.authenticate(request.headers.get('authorization')));
        await options.rateLimiter.check(principal.credential.id, 'read', state.responseHeaders);
        workspaceId = principal.workspace.id;
      } catch (error) {
        return refuse(restErrorFrom([await options.rateLimiter.refusal(error, state.clientAddress)], state.requestId, ROUTE));
      }
      let id: string;
      try {
        id = decodeURIComponent(found[1]!);
      } catch {
        id = '';
      }
      if (!UUID.test(id)) return refuse(validationFailure([{ argument: 'exportId', location: 'path', expected: ['exportId must be a UUID'] }], state.requestId));
      try {
        const file = await exportFile(options.pool, workspaceId, id);
        if (!file) return refuse(restErrorFrom([notFound('The export')], state.requestId, ROUTE));
        if (!file.read) {
          const { row } = file;
          if (row.state === 'queued' || row.state === 'running') {
            return refuse(restErrorFrom([apiError('conflict', `The export is ${row.state}: its file is ready once its state is done (GET /v1/exports/${id}).`)], state.requestId, ROUTE));
          }
          return refuse(restErrorFrom([notFound(`The export's file (the export is ${row.state})`)], state.requestId, ROUTE));
        }
        const { row, read } = file;
        const size = row.fileBytes ?? 0;
        const etag = row.etag ?? `"${row.id}-${size}"`;
        const headers: Record<string, string> = {
          ...Object.fromEntries(state.responseHeaders),
          'Content-Type': CONTENT_TYPES[row.format],
          'Content-Disposition': `attachment; filename="export-${row.id}.${EXTENSIONS[row.format]}"`,
          'Accept-Ranges': 'bytes',
          ETag: etag,
          'Cache-Control': 'private, no-cache',
        };
        if (row.expiresAt) headers.Expires = new Date(row.expiresAt).toUTCString();
        if (request.headers.get('if-none-match')?.split(',').map((tag) => tag.trim()).includes(etag)) {
          return endResponse(new fetchAPI.Response(null, { status: 304, headers }));
        }
        const ifRange = request.headers.get('if-range');
        const range = ifRange && ifRange !== etag ? null : byteRange(request.headers.get('range'), size);
        if (range === 'unsatisfiable') {
          return endResponse(new fetchAPI.Response(null, { status: 416, headers: { ...headers, 'Content-Range': `bytes */${size}` } }));
        }
        const { start, end } = range ?? { start: 0, end: size - 1 };
        const length = size === 0 ? 0 : end - start + 1;
        const body = request.method === 'HEAD' || length === 0 ? null : await read(start, end);
        const status = range ? 206 : 200;
        if (range) headers['Content-Range'] = `bytes ${start}-${end}/${size}`;
        headers['Content-Length'] = String(length);
        return endResponse(new fetchAPI.Response(body, { status, headers }));
      } catch (error) {
        if (error instanceof FileGone) {
          options.logger?.error({ requestId: state.requestId, err: error }, 'an export file is missing from its store');
          return refuse(restErrorFrom([notFound("The export's file (it is missing from the store)")], state.requestId, ROUTE));
        }
        return refuse(restErrorFrom([error], state.requestId, ROUTE));
      }
    },
  };
}
