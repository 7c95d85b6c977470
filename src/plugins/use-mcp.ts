import type { Plugin } from 'graphql-yoga';
import { restErrorFrom, validationFailure, type RestError } from '../../rest/errors.js';
import type { Authenticator } from '../auth/authenticate.js';
import { createMcpHandler, type McpOptions } from '../mcp/handler.js';
import type { RateLimiter } from '../metering/rate-limit.js';
import type { Logger } from '../observability/logger.js';
import { readBodyText, REFUSED_BODY_HEADERS, type BodyRefused } from './use-request-body-limit.js';
import { currentRequest, noteErrorCode } from './use-request-state.js';

const MCP_PATH = '/v1/mcp';

/**
 * Serves the Model Context Protocol at /v1/mcp (src/mcp/): tools that call the server's own routes. Like every /v1
 * route but the three system ones, every request needs a valid bearer key (the REST surface's authenticator, before
 * anything is read: no key, no tool list; a refused key draws from its address's bucket, as on REST), and its body is
 * read under the same limit as theirs (1 MiB, UTF-8). Refusals are the REST error envelope.
 */
export function useMcp(options: McpOptions & { authenticate: Authenticator; rateLimiter: RateLimiter; logger?: Logger }): Plugin {
  const handle = createMcpHandler(options);
  return {
    async onRequest({ request, url, endResponse, fetchAPI }) {
      if (url.pathname !== MCP_PATH) return;
      const state = currentRequest()!;
      state.route = MCP_PATH;
      const refuse = (failure: RestError) => {
        noteErrorCode(failure.body.error.code);
        endResponse(fetchAPI.Response.json(failure.body, { status: failure.status, headers: failure.headers }));
      };
      try {
        await (state.principal ??= options.authenticate(request.headers.get('authorization')));
      } catch (error) {
        // The authenticator throws the specification's codes only; anything else is a fault of this server.
        const failure = restErrorFrom([await options.rateLimiter.refusal(error, state.clientAddress)], state.requestId, undefined);
        if (failure.body.error.code === 'internal_error') options.logger?.error({ requestId: state.requestId, err: error }, 'internal error');
        return refuse(failure);
      }
      let body: string | undefined;
      if (request.method === 'POST') {
        try {
          body = await readBodyText(request);
        } catch (error) {
          const failure = validationFailure([{ argument: '', location: 'body', expected: [(error as BodyRefused).expected] }], state.requestId);
          return refuse({ ...failure, headers: { ...failure.headers, ...REFUSED_BODY_HEADERS } });
        }
      }
      endResponse(await handle(body === undefined ? request : new fetchAPI.Request(request.url, { method: request.method, headers: request.headers, body })));
    },
  };
}
