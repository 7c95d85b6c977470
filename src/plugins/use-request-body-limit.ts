import type { Plugin } from 'graphql-yoga';
import { apiError, type ApiErrorExtensions } from '../errors.js';
import { NOT_UTF8, undecodableParams } from './use-input-guard.js';

/**
 * The largest request body either surface reads: 1 MiB, far above any real query (a GraphQL document is capped
 * at 3,000 tokens, list filters at a few hundred values) and small enough that no client can make the server
 * buffer its way out of memory.
 */
export const MAX_BODY_BYTES = 1024 * 1024;

const DECIMAL = /^\d+$/;

/** Why a body cannot be read, as the validation failure both surfaces answer with (400 validation_error). */
export class BodyRefused extends Error {
  constructor(readonly expected: string) {
    super(expected);
  }
}

const tooLarge = () => new BodyRefused(`the body must be at most ${MAX_BODY_BYTES} bytes`);

/**
 * Refuses a body before it is read when its declared length is malformed or over the limit. A declared length is
 * binding: Node's HTTP parser hands over exactly that many bytes, so such a body needs no counting while it is read.
 */
function checkDeclaredLength(headers: Headers): BodyRefused | 'declared' | 'undeclared' {
  const declared = headers.get('content-length');
  if (declared === null) return 'undeclared';
  if (!DECIMAL.test(declared)) return new BodyRefused('Content-Length must be one non-negative integer');
  return Number(declared) > MAX_BODY_BYTES ? tooLarge() : 'declared';
}

/** A body without a declared length (chunked), read chunk by chunk and abandoned as soon as it passes the limit. */
async function readCounted(body: ReadableStream<Uint8Array>): Promise<Buffer> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

/** A body that broke off (the client went away or sent a malformed chunk) is the client's failure, not the server's. */
function unreadable(error: unknown): BodyRefused {
  return error instanceof BodyRefused ? error : new BodyRefused('the body could not be read to its end');
}

/** The request's body as bytes (a multipart upload's), never more than MAX_BODY_BYTES of them; throws BodyRefused otherwise. */
export async function readBodyBytes(request: Request): Promise<Buffer> {
  const length = checkDeclaredLength(request.headers);
  if (length instanceof BodyRefused) throw length;
  try {
    return length === 'declared' || request.body === null ? Buffer.from(await request.arrayBuffer()) : await readCounted(request.body);
  } catch (error) {
    throw unreadable(error);
  }
}

// Bytes that are not UTF-8 (an encoded surrogate such as ED A0 80 among them) are refused, never read as U+FFFD.
const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** The request's body as UTF-8 text, never more than MAX_BODY_BYTES of it; throws BodyRefused otherwise. */
export async function readBodyText(request: Request): Promise<string> {
  const bytes = await readBodyBytes(request);
  try {
    return UTF8.decode(bytes);
  } catch {
    throw new BodyRefused('the body must be UTF-8 text');
  }
}

/**
 * A refused body is left unread, or read only in part: the connection is closed after the answer, or its next
 * request would start in the middle of this body (and a declared body would be drained, however long).
 */
export const REFUSED_BODY_HEADERS: Readonly<Record<string, string>> = { connection: 'close' };

function asApiError(refused: BodyRefused) {
  return apiError('validation_error', `Invalid request: ${refused.expected}`, {
    details: { validationErrors: [{ field: 'body', location: 'body', expected: [refused.expected] }] },
    headers: { ...REFUSED_BODY_HEADERS },
  });
}

/**
 * Why yoga has no parser for a /graphql request: a method other than GET and POST (405 method_not_allowed), or a POST
 * of a media type it does not read, told with the validation code and the status HTTP has for it (415; the
 * specification's table has no code of its own for it).
 */
function unparsable(method: string) {
  if (method !== 'POST') return apiError('method_not_allowed', `/graphql takes GET and POST, not ${method}.`, { headers: { Allow: 'GET, POST' } });
  const expected = 'Content-Type must be application/json';
  const refused = apiError('validation_error', `Invalid request: ${expected}`, {
    details: { validationErrors: [{ field: 'header.Content-Type', location: 'header', expected: [expected] }] },
  });
  (refused.extensions as ApiErrorExtensions).http.status = 415;
  return refused;
}

/**
 * The body limit of /graphql (yoga's own, `maxRequestBodySize`, is turned off: it pipes every body through a
 * transform stream, a tenth of the CPU of a small POST). A declared length is checked from the header alone; the
 * body is then read as REST reads it (one without a declared length through the counting reader; as UTF-8 text
 * unless multipart, whose files are bytes) and handed to yoga's parser.
 */
export function useRequestBodyLimit(): Plugin {
  return {
    onRequestParse({ request, requestParser, setRequestParser, fetchAPI }) {
      if (!requestParser) throw unparsable(request.method);
      const length = checkDeclaredLength(request.headers);
      if (length instanceof BodyRefused) throw asApiError(length);
      if (request.body === null) return;
      const type = request.headers.get('content-type')?.toLowerCase() ?? '';
      const parse = requestParser;
      setRequestParser(async (original) => {
        let body: string | Uint8Array<ArrayBuffer>;
        try {
          body = type.startsWith('multipart/') ? new Uint8Array(await readBodyBytes(original)) : await readBodyText(original);
        } catch (error) {
          throw asApiError(unreadable(error));
        }
        if (type.startsWith('application/x-www-form-urlencoded') && undecodableParams(String(body)).length) throw asApiError(new BodyRefused(`the body ${NOT_UTF8}`));
        return parse(new fetchAPI.Request(original.url, { method: original.method, headers: original.headers, body }));
      });
    },
  };
}
