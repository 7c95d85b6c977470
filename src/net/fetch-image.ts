import { lookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';

// Outbound HTTP on a client's behalf (image search's `imageUrl`), without letting it reach what only the server can
// (SSRF): http(s) only, every address the name resolves to must be public (the connection uses the address that was
// checked, so a name cannot resolve differently between the check and the connection; an IPv6 address that carries an
// IPv4 one, mapped, compatible, NAT64, 6to4 or Teredo, must lead to a public one too), redirects are followed (at most
// 3) under the same rules, and the answer is bounded in time and size. IMAGE_FETCH_ALLOW_PRIVATE=true lets an operator
// fetch from private networks (an internal image store); it is off by default.

export const FETCH_TIMEOUT_MS = 5_000;
export const MAX_FETCHED_BYTES = 5 * 1024 * 1024;
const MAX_REDIRECTS = 3;

export class FetchRefused extends Error {}

const blocked = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12], ['192.0.0.0', 24],
  ['192.0.2.0', 24], ['192.88.99.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24], ['203.0.113.0', 24], ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) blocked.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 128], ['::1', 128], ['64:ff9b::', 96], ['64:ff9b:1::', 48], ['100::', 64], ['2001:2::', 48], ['2001:10::', 28], ['2001:db8::', 32],
  ['3fff::', 20], ['fc00::', 7], ['fe80::', 10], ['fec0::', 10], ['ff00::', 8],
] as const) blocked.addSubnet(network, prefix, 'ipv6');

const allowPrivate = () => process.env.IMAGE_FETCH_ALLOW_PRIVATE === 'true';

/** The eight 16-bit groups of an IPv6 address (one that isIP accepts), its zone left out. */
function ipv6Groups(address: string): number[] {
  const groupsOf = (part: string) =>
    part === ''
      ? []
      : part.split(':').flatMap((group) => {
          if (!group.includes('.')) return [parseInt(group, 16)];
          const [a, b, c, d] = group.split('.').map(Number);
          return [(a << 8) | b, (c << 8) | d];
        });
  const [head, tail] = address.replace(/%.*$/, '').split('::');
  if (tail === undefined) return groupsOf(head);
  const [first, last] = [groupsOf(head), groupsOf(tail)];
  return [...first, ...Array<number>(8 - first.length - last.length).fill(0), ...last];
}

const ipv4Of = (high: number, low: number) => [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');

/**
 * The IPv4 addresses an IPv6 address leads to: IPv4-mapped (::ffff:a.b.c.d), IPv4-translated (::ffff:0:a.b.c.d),
 * IPv4-compatible (::a.b.c.d), NAT64 (64:ff9b::a.b.c.d), 6to4 (2002:AABB:CCDD::) and Teredo (2001:0::, its server,
 * and its client as the inverted last 32 bits). A connection to such an address reaches the IPv4 host.
 */
export function embeddedIPv4(address: string): string[] {
  const g = ipv6Groups(address);
  const zeros = (from: number, to: number) => g.slice(from, to).every((group) => group === 0);
  if (zeros(0, 5) && (g[5] === 0xffff || g[5] === 0)) return [ipv4Of(g[6], g[7])];
  if (zeros(0, 4) && g[4] === 0xffff && g[5] === 0) return [ipv4Of(g[6], g[7])];
  if (g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6)) return [ipv4Of(g[6], g[7])];
  if (g[0] === 0x2002) return [ipv4Of(g[1], g[2])];
  if (g[0] === 0x2001 && g[1] === 0) return [ipv4Of(g[2], g[3]), ipv4Of(g[6] ^ 0xffff, g[7] ^ 0xffff)];
  return [];
}

/** Whether an address is private, loopback, link-local or otherwise not on the public internet, or leads to one that is. */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return blocked.check(address, 'ipv4');
  if (family === 0) return true;
  return blocked.check(address.replace(/%.*$/, ''), 'ipv6') || embeddedIPv4(address).some((v4) => blocked.check(v4, 'ipv4'));
}

/** Resolves a host and refuses it when any of its addresses is not public; the connection uses the first. */
const checkedLookup: LookupFunction = (hostname, options, callback) => {
  lookup(hostname, { all: true, verbatim: true })
    .then((addresses) => {
      const refused = addresses.find((a) => isPrivateAddress(a.address));
      if (!addresses.length) throw new FetchRefused(`imageUrl: ${hostname} does not resolve`);
      if (refused && !allowPrivate()) throw new FetchRefused(`imageUrl must point to a public address (${hostname} resolves to ${refused.address})`);
      if (options.all) callback(null, addresses);
      else callback(null, addresses[0].address, addresses[0].family);
    })
    .catch((error: Error) => callback(error instanceof FetchRefused ? error : new FetchRefused(`imageUrl: ${hostname} could not be resolved`), '', 0));
};

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
