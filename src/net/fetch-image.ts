import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { guardedLookup, isPrivateAddress } from './address-guard.js';

// Outbound HTTP on a client's behalf (image search's `imageUrl`), without letting it reach what only the server can
// (SSRF): http(s) only, every address the name resolves to must be public (the connection uses the address that was
// checked, so a name cannot resolve differently between the check and the connection; an IPv6 address that carries an
// IPv4 one, mapped, compatible, NAT64, 6to4 or Teredo, must lead to a public one too), redirects are followed (at most
// 3) under the same rules, and the answer is bounded in time and size (the address rules: src/net/address-guard.ts).
// IMAGE_FETCH_ALLOW_PRIVATE=true lets an operator fetch from private networks (an internal image store); it is off by
// default.

export const FETCH_TIMEOUT_MS = 5_000;
export const MAX_FETCHED_BYTES = 5 * 1024 * 1024;
const MAX_REDIRECTS = 3;

export class FetchRefused extends Error {}

const allowPrivate = () => process.env.IMAGE_FETCH_ALLOW_PRIVATE === 'true';

const checkedLookup = guardedLookup({ allowPrivate, refuse: (message) => new FetchRefused(message), argument: 'imageUrl' });

/** Checks a URL before any connection: scheme, credentials, literal addresses. */
export function checkImageUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new FetchRefused('imageUrl must be an absolute http(s) URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new FetchRefused('imageUrl must use http or https');
  if (url.username || url.password) throw new FetchRefused('imageUrl must not carry credentials');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) && isPrivateAddress(host) && !allowPrivate()) throw new FetchRefused(`imageUrl must point to a public address (${host} is not)`);
  return url;
}

function get(url: URL, deadline: number): Promise<{ status: number; location?: string; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const client = url.protocol === 'https:' ? https : http;
    const request = client.get(url, { lookup: checkedLookup, timeout: Math.max(1, deadline - Date.now()), headers: { accept: 'image/jpeg, image/png, image/*;q=0.8' } }, (response) => {
      const status = response.statusCode ?? 0;
      if (status >= 300 && status < 400) {
        response.resume();
        resolve({ status, location: response.headers.location, body: Buffer.alloc(0) });
        return;
      }
      const declared = Number(response.headers['content-length'] ?? 0);
      if (declared > MAX_FETCHED_BYTES) {
        request.destroy();
        reject(new FetchRefused(`the image at imageUrl must be at most ${MAX_FETCHED_BYTES} bytes`));
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_FETCHED_BYTES) {
          request.destroy();
          reject(new FetchRefused(`the image at imageUrl must be at most ${MAX_FETCHED_BYTES} bytes`));
        } else chunks.push(chunk);
      });
      response.on('end', () => resolve({ status, body: Buffer.concat(chunks) }));
      response.on('error', reject);
    });
    const timer = setTimeout(() => request.destroy(new FetchRefused(`imageUrl did not answer within ${FETCH_TIMEOUT_MS} ms`)), Math.max(1, deadline - Date.now()));
    request.on('timeout', () => request.destroy(new FetchRefused(`imageUrl did not answer within ${FETCH_TIMEOUT_MS} ms`)));
    request.on('error', (error) => reject(error instanceof FetchRefused ? error : new FetchRefused(`imageUrl could not be fetched (${error.message})`)));
    request.on('close', () => clearTimeout(timer));
  });
}

/** The bytes at `raw`, or a FetchRefused saying why not (a client error). */
export async function fetchImage(raw: string): Promise<Buffer> {
  const deadline = Date.now() + FETCH_TIMEOUT_MS;
  let url = checkImageUrl(raw);
  for (let hop = 0; ; hop++) {
    const answer = await get(url, deadline);
    if (answer.location !== undefined) {
      if (hop >= MAX_REDIRECTS) throw new FetchRefused(`imageUrl redirected more than ${MAX_REDIRECTS} times`);
      url = checkImageUrl(new URL(answer.location, url).toString());
      continue;
    }
    if (answer.status !== 200) throw new FetchRefused(`imageUrl answered HTTP ${answer.status}`);
    return answer.body;
  }
}
