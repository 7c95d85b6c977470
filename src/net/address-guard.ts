import { lookup } from 'node:dns/promises';
import { BlockList, isIP, type LookupFunction } from 'node:net';

// The SSRF guard of every outbound request made on a client's behalf (image search's `imageUrl`,
// src/net/fetch-image.ts; a webhook's endpoint, src/net/webhook-target.ts): which addresses are not on the public
// internet, and a DNS lookup for connections that refuses a name when any of its addresses is one of them, so that the
// connection goes to the address that was checked (a name cannot resolve differently between the check and the
// connection). An IPv6 address that carries an IPv4 one (mapped, compatible, NAT64, 6to4, Teredo) must lead to a public
// one too.

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

/** How a guarded lookup refuses: its setting (an operator may allow private networks) and its error. */
export type AddressGuard = {
  allowPrivate: () => boolean;
  /** The error of a refused or unresolvable name, e.g. `imageUrl must point to a public address (…)`. */
  refuse: (message: string) => Error;
  /** The argument the messages name: `imageUrl`, `url`. */
  argument: string;
};

/** Every address `hostname` resolves to, refused (the guard's error) when one is not public or none is found. */
export async function publicAddresses(hostname: string, guard: AddressGuard): Promise<{ address: string; family: number }[]> {
  let addresses: { address: string; family: number }[];
  try {
    addresses = await lookup(hostname, { all: true, verbatim: true });
  } catch {
    throw guard.refuse(`${guard.argument}: ${hostname} could not be resolved`);
  }
  if (!addresses.length) throw guard.refuse(`${guard.argument}: ${hostname} does not resolve`);
  const refused = addresses.find((a) => isPrivateAddress(a.address));
  if (refused && !guard.allowPrivate()) throw guard.refuse(`${guard.argument} must point to a public address (${hostname} resolves to ${refused.address})`);
  return addresses;
}

/** A connection's lookup under the guard: resolves the host, refuses it when any address is not public, connects to the first. */
export function guardedLookup(guard: AddressGuard): LookupFunction {
  return (hostname, options, callback) => {
    publicAddresses(hostname, guard)
      .then((addresses) => {
        if (options.all) callback(null, addresses);
        else callback(null, addresses[0].address, addresses[0].family);
      })
      .catch((error: Error) => callback(error, '', 0));
  };
}
