import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { guardedLookup, isPrivateAddress, publicAddresses, type AddressGuard } from './address-guard.js';

// Outbound HTTP to a workspace's webhook endpoint, under the SSRF guard of image search (src/net/address-guard.ts):
// the URL is checked when a webhook is created or changed, and every connection of a delivery resolves the host again
// and refuses it when any address is private, loopback or link-local (DNS can change after the check): the connection
// goes to the address that was checked. https only; WEBHOOK_ALLOW_PRIVATE=true allows
// private addresses and plain http, for tests and private networks. Redirects are not followed (a 3xx is a failure,
// as Standard Webhooks says), and an answer's body is read and dropped.

export class WebhookTargetRefused extends Error {}

export const MAX_WEBHOOK_URL_LENGTH = 2048;

const allowPrivate = () => process.env.WEBHOOK_ALLOW_PRIVATE === 'true';

/** The URL's form: absolute, https (http only with WEBHOOK_ALLOW_PRIVATE), no credentials, no literal private address. */
export function checkWebhookUrlForm(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new WebhookTargetRefused('url must be an absolute https URL');
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && allowPrivate())) {
    throw new WebhookTargetRefused(allowPrivate() ? 'url must use https or http' : 'url must use https (http needs WEBHOOK_ALLOW_PRIVATE=true)');
  }
  if (url.username || url.password) throw new WebhookTargetRefused('url must not carry credentials');
  if (url.hash) throw new WebhookTargetRefused('url must not have a #fragment');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) && isPrivateAddress(host) && !allowPrivate()) throw new WebhookTargetRefused(`url must point to a public address (${host} is not)`);
  return url;
}

const guard: AddressGuard = { allowPrivate, refuse: (message) => new WebhookTargetRefused(message), argument: 'url' };

/** The URL's form and where its host resolves now (a webhook's creation and changes). */
export async function checkWebhookUrl(raw: string): Promise<URL> {
  const url = checkWebhookUrlForm(raw);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!isIP(host)) await publicAddresses(host, guard);
  return url;
}

// Connections are kept alive between the deliveries of an endpoint: a burst of events costs one connection, not one
// per event. A kept connection goes to the address checked when it was opened. An idle one is closed after 4 s, before
// the usual keep-alive timeout of servers (5 s): reusing a connection the endpoint is closing would fail an attempt.
const agents = {
  'http:': new http.Agent({ keepAlive: true, maxSockets: 8, maxFreeSockets: 4, timeout: 4_000 }),
  'https:': new https.Agent({ keepAlive: true, maxSockets: 8, maxFreeSockets: 4, timeout: 4_000 }),
};

/** An answer's body is read and dropped; past this much it is cut off (the status is what counts). */
const MAX_ANSWER_BYTES = 64 * 1024;

/** What an attempt got: the HTTP status (null when none came), the time it took, and why it failed (null for a 2xx). */
export type PostOutcome = { status: number | null; latencyMs: number; error: string | null };

/** POSTs `body` to `url` (checked again: form and, on connection, every address); never throws. */
export function postWebhook(raw: string, headers: Record<string, string>, body: string, timeoutMs: number): Promise<PostOutcome> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  let url: URL;
  try {
    url = checkWebhookUrlForm(raw);
  } catch (error) {
    return Promise.resolve({ status: null, latencyMs: 0, error: (error as Error).message });
  }
  return new Promise((resolve) => {
    let settled = false;
    const done = (outcome: PostOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    const client = url.protocol === 'https:' ? https : http;
    const request = client.request(
      url,
      {
        method: 'POST',
        agent: agents[url.protocol as 'http:' | 'https:'],
        lookup: guardedLookup(guard),
        headers: { ...headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) },
      },
      (response) => {
        const status = response.statusCode ?? 0;
        const outcome = () => ({ status, latencyMs: elapsed(), error: status >= 200 && status < 300 ? null : `HTTP ${status}` });
        let read = 0;
        response.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read <= MAX_ANSWER_BYTES) return;
          done(outcome());
          response.destroy();
        });
        response.on('end', () => done(outcome()));
        response.on('error', (error) => done({ status, latencyMs: elapsed(), error: `the answer broke off (${error.message})` }));
      },
    );
    const timer = setTimeout(() => {
      request.destroy();
      done({ status: null, latencyMs: elapsed(), error: `no answer within ${timeoutMs} ms` });
    }, timeoutMs);
    request.on('error', (error: NodeJS.ErrnoException) => {
      done({ status: null, latencyMs: elapsed(), error: error instanceof WebhookTargetRefused ? error.message : `could not be reached (${error.code ?? error.message})` });
    });
    request.end(body);
  });
}
