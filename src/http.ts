import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Logger } from './observability/logger.js';
import type { Metrics } from './observability/metrics.js';

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

/** Why Node's HTTP parser refused a request, in the words of the error envelope. */
function parserProblem(code: string | undefined): { field: string; expected: string } {
  if (code === 'HPE_HEADER_OVERFLOW') return { field: 'headers', expected: 'the request line and headers must be at most 16 KB' };
  if (code === 'HPE_INVALID_CONTENT_LENGTH' || code === 'HPE_UNEXPECTED_CONTENT_LENGTH') return { field: 'headers', expected: 'Content-Length must be one non-negative integer (and not sent with Transfer-Encoding)' };
  if (code === 'HPE_INVALID_CHUNK_SIZE' || code === 'HPE_INVALID_TRANSFER_ENCODING') return { field: 'body', expected: 'a chunked body must be well-formed' };
  return { field: 'request', expected: 'the request must be well-formed HTTP/1.1' };
}

/**
 * Answers a request Node's HTTP parser refused (malformed Content-Length, chunked junk, a URL or headers over 16 KB)
 * with the error envelope instead of an empty 400, and logs it with its request id. The connection is closed.
 */
export function answerClientError(logger: Logger) {
  return (error: Error & { code?: string }, socket: Socket) => {
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
      socket.end('HTTP/1.1 408 Request Timeout\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    const requestId = randomUUID();
    const { field, expected } = parserProblem(error.code);
    const body = JSON.stringify({ error: { code: 'validation_error', message: `Invalid request: ${expected}`, requestId, details: { validationErrors: [{ field, location: field === 'body' ? 'body' : 'request', expected: [expected] }] } } });
    logger.info({ requestId, status: 400, parserError: error.code, route: 'unparsed' }, 'malformed request refused by the HTTP parser');
    socket.end(`HTTP/1.1 400 Bad Request\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nX-Request-Id: ${requestId}\r\nConnection: close\r\n\r\n${body}`);
  };
}

async function serveMetrics(metrics: Metrics, response: ServerResponse) {
  const { body, contentType } = await metrics.render();
  response.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-store' }).end(body);
}

/** The API's HTTP server: the app, /metrics when asked for on this port, and parser errors in the envelope. */
export function createHttpServer(app: Handler, options: { logger: Logger; metrics?: Metrics; metricsOnThisPort?: boolean }): Server {
  const { metrics, metricsOnThisPort } = options;
  const handler: Handler = metrics && metricsOnThisPort
    ? (request, response) => {
        if (request.method === 'GET' && (request.url === '/metrics' || request.url?.startsWith('/metrics?'))) void serveMetrics(metrics, response);
        else app(request, response);
      }
    : app;
  const server = createServer(handler);
  server.on('clientError', answerClientError(options.logger));
  return server;
}

/** A server of its own for the metrics (METRICS_PORT): Prometheus scrapes it, the API's port does not expose them. */
export function createMetricsServer(metrics: Metrics): Server {
  return createServer((request, response) => {
    if (request.method === 'GET' && (request.url === '/metrics' || request.url?.startsWith('/metrics?'))) void serveMetrics(metrics, response);
    else response.writeHead(404, { 'content-type': 'text/plain' }).end('GET /metrics\n');
  });
}
