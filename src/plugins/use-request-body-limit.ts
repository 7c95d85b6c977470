import type { Plugin } from 'graphql-yoga';
import { apiError } from '../errors.js';

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

/** The request's body as text, never more than MAX_BODY_BYTES of it; throws BodyRefused otherwise. */
export async function readBodyText(request: Request): Promise<string> {
  const length = checkDeclaredLength(request.headers);
  if (length instanceof BodyRefused) throw length;
  try {
    return length === 'declared' || request.body === null ? await request.text() : (await readCounted(request.body)).toString('utf8');
  } catch (error) {
    throw unreadable(error);
  }
}

/** The request's body as bytes (a multipart upload), under the same limit as readBodyText. */
export async function readBodyBytes(request: Request): Promise<Buffer> {
  const length = checkDeclaredLength(request.headers);
  if (length instanceof BodyRefused) throw length;
  try {
    return length === 'declared' || request.body === null ? Buffer.from(await request.arrayBuffer()) : await readCounted(request.body);
  } catch (error) {
    throw unreadable(error);
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
 * The body limit of /graphql (yoga's own, `maxRequestBodySize`, is turned off: it pipes every body through a
 * transform stream, a tenth of the CPU of a small POST). A declared length is checked from the header alone;
 * only a body without one is read through the counting reader.
 */
export function useRequestBodyLimit(): Plugin {
  return {
    onRequestParse({ request, requestParser, setRequestParser, fetchAPI }) {
      const length = checkDeclaredLength(request.headers);
      if (length instanceof BodyRefused) throw asApiError(length);
      if (length === 'declared' || !requestParser || request.body === null) return;
      const parse = requestParser;
      setRequestParser(async (original) => {
        let text: string;
        try {
          text = await readBodyText(original);
        } catch (error) {
          throw asApiError(unreadable(error));
        }
        return parse(new fetchAPI.Request(original.url, { method: original.method, headers: original.headers, body: text }));
      });
    },
  };
}
