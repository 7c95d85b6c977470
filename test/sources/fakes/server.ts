import { createServer, type IncomingHttpHeaders, type OutgoingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

// The loopback HTTP server under the source fakes (meta.ts, tiktok.ts, shopify.ts): it records every request,
// tracks how many are in flight at once per key (a Shopify store, say), writes the fake's reply (whole, cut short
// with consistent framing, or dropped mid-body), and runs a script of faults keyed by request number or predicate.
// node:http only, 127.0.0.1 on an ephemeral port.

export type RecordedRequest = {
  /** 1-based order of arrival at this server. */
  seq: number;
  method: string;
  /** The path without the query string. */
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: string;
  /** Date.now() when the request (with its body) had arrived. */
  at: number;
};

export type Reply = {
  status: number;
  headers?: OutgoingHttpHeaders;
  body?: string;
  /** Send only the first `cutAt` bytes of the body, framed as a whole (Content-Length of the cut): a 200 whose JSON ends mid-way. */
  cutAt?: number;
  /** Declare the whole body's length, send its first `dropAt` bytes, then destroy the socket: the transfer breaks. */
  dropAt?: number;
  /** Wait this long before answering (keeps the request in flight). */
  delayMs?: number;
};

export type Handler = (request: RecordedRequest, server: { url: string }) => Reply | Promise<Reply>;

export type FakeServer = {
  /** http://127.0.0.1:PORT */
  url: string;
  requests: RecordedRequest[];
  /** Requests being answered now, for one key (see `inFlightKey`) or all of them. */
  inFlight(key?: string): number;
  /** The most requests ever in flight at once, for one key or all of them. */
  maxInFlight(key?: string): number;
  close(): Promise<void>;
};

export type ServerOptions = {
  /** Groups requests for in-flight tracking (e.g. per store); null leaves a request out of the per-key figures. */
  inFlightKey?: (request: RecordedRequest) => string | null;
};

const ALL = '\u0000all';

export async function startServer(handler: Handler, options: ServerOptions = {}): Promise<FakeServer> {
  const requests: RecordedRequest[] = [];
  const current = new Map<string, number>();
  const highest = new Map<string, number>();
  const enter = (key: string) => {
    const n = (current.get(key) ?? 0) + 1;
    current.set(key, n);
    if (n > (highest.get(key) ?? 0)) highest.set(key, n);
  };
  const leave = (key: string) => current.set(key, (current.get(key) ?? 1) - 1);
  const self = { url: '' };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const target = new URL(req.url ?? '/', 'http://127.0.0.1');
      const request: RecordedRequest = {
        seq: requests.length + 1,
        method: req.method ?? 'GET',
        path: target.pathname,
        query: target.searchParams,
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        at: Date.now(),
      };
      requests.push(request);
      const keys = [ALL];
      const key = options.inFlightKey?.(request) ?? null;
      if (key !== null) keys.push(key);
      keys.forEach(enter);
      res.on('close', () => keys.forEach(leave));
      Promise.resolve()
        .then(() => handler(request, self))
        .then((reply) => write(reply))
        .catch((error: unknown) => write({ status: 500, headers: { 'content-type': 'text/plain' }, body: `fake server error: ${String(error)}` }));

      function write(reply: Reply): void {
        const send = () => {
          const body = Buffer.from(reply.body ?? '', 'utf8');
          const headers: OutgoingHttpHeaders = { ...reply.headers };
          if (reply.cutAt !== undefined) {
            const cut = body.subarray(0, Math.min(reply.cutAt, body.length));
            res.writeHead(reply.status, { ...headers, 'content-length': cut.length });
            res.end(cut);
          } else if (reply.dropAt !== undefined) {
            res.writeHead(reply.status, { ...headers, 'content-length': body.length });
            res.write(body.subarray(0, Math.min(reply.dropAt, body.length)), () => res.destroy());
          } else {
            res.writeHead(reply.status, reply.status === 304 ? headers : { ...headers, 'content-length': body.length });
            res.end(reply.status === 304 ? undefined : body);
          }
        };
        if (reply.delayMs) setTimeout(send, reply.delayMs);
        else send();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  self.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url: self.url,
    requests,
    inFlight: (key) => current.get(key ?? ALL) ?? 0,
    maxInFlight: (key) => highest.get(key ?? ALL) ?? 0,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

// ---------------------------------------------------------------------------
// Fault scripts
// ---------------------------------------------------------------------------

/**
 * One scripted fault. `at`: the request numbers (1-based, counted by the script's owner: a fake counts the requests of
 * its data endpoint, a Shopify store its own) that answer with the fault. `when`: a predicate instead (or as well).
 * Neither: every request. `times`: how many times the rule fires at most (default: unbounded).
 */
export type FaultRule<F> = {
  fault: F;
  at?: number | number[];
  when?: (request: RecordedRequest, n: number) => boolean;
  times?: number;
};

export class FaultScript<F> {
  private readonly rules: { rule: FaultRule<F>; fired: number }[] = [];
  /** Requests counted so far. */
  count = 0;

  constructor(rules: FaultRule<F>[] = []) {
    rules.forEach((rule) => this.add(rule));
  }

  add(rule: FaultRule<F>): void {
    this.rules.push({ rule, fired: 0 });
  }

  clear(): void {
    this.rules.length = 0;
  }

  /** Counts one request; the first rule that matches it (and has fires left) gives its fault, else null. */
  next(request: RecordedRequest): F | null {
    const n = ++this.count;
    for (const entry of this.rules) {
      const { rule } = entry;
      if (entry.fired >= (rule.times ?? Infinity)) continue;
      if (rule.at !== undefined && !(Array.isArray(rule.at) ? rule.at : [rule.at]).includes(n)) continue;
      if (rule.when && !rule.when(request, n)) continue;
      entry.fired++;
      return rule.fault;
    }
    return null;
  }
}

// ---------------------------------------------------------------------------
// Shared pieces
// ---------------------------------------------------------------------------

/** A record source: a list, or `count` records made one at a time (the bench serves 100,000 without holding them). */
export type Records<T> = readonly T[] | { count: number; make(i: number): T };

export const recordCount = <T>(records: Records<T>): number => ('make' in records ? records.count : records.length);
export const recordAt = <T>(records: Records<T>, i: number): T => ('make' in records ? records.make(i) : records[i]);

/**
 * JSON text in which the strings of decimal digits whose key path `isRaw` accepts (object keys from the root; array
 * positions are not in the path) become number literals: how an API with 64-bit ids sends them.
 */
export function jsonWithIntegers(value: unknown, isRaw: (path: string[]) => boolean): string {
  const path: string[] = [];
  const walk = (node: unknown): string => {
    if (Array.isArray(node)) return `[${node.map((item) => walk(item)).join(',')}]`;
    if (node !== null && typeof node === 'object') {
      const parts: string[] = [];
      for (const [key, item] of Object.entries(node)) {
        if (item === undefined) continue;
        path.push(key);
        parts.push(`${JSON.stringify(key)}:${typeof item === 'string' && /^\d+$/.test(item) && isRaw(path) ? item : walk(item)}`);
        path.pop();
      }
      return `{${parts.join(',')}}`;
    }
    return JSON.stringify(node) ?? 'null';
  };
  return walk(value);
}

/** A deterministic pseudo-random integer in [0, n) for (i, salt): the generators' variety without state. */
export function pick(i: number, salt: number, n: number): number {
  let x = (Math.imul(i + 1, 0x9e3779b1) ^ Math.imul(salt + 7, 0x85ebca6b)) >>> 0;
  x = Math.imul(x ^ (x >>> 15), 0x2c1b3c6d) >>> 0;
  x = Math.imul(x ^ (x >>> 12), 0x297a2d39) >>> 0;
  return ((x ^ (x >>> 15)) >>> 0) % n;
}

/** `YYYY-MM-DD` of a UTC time. */
export const isoDay = (time: number): string => new Date(time).toISOString().slice(0, 10);

export const DAY_MS = 86_400_000;
