import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import type pg from 'pg';
import { Webhook } from 'standardwebhooks';
import { recordEvents } from '../../src/data/events.js';

// What the webhook tests share: a real receiver on 127.0.0.1 (node:http) that answers each request with the status
// its test asks for and keeps what it got, and events of a workspace recorded as a writer records them.

export type Receipt = { n: number; headers: IncomingHttpHeaders; body: string; answered: number };

export type Receiver = {
  url: string;
  receipts: Receipt[];
  /** The receipts answered with a 2xx. */
  accepted(): Receipt[];
  /** Waits until `done` holds over the receipts (polling; fails after `timeoutMs`, saying what came). */
  waitFor(done: (receipts: Receipt[]) => boolean, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
};

/** A receiver answering the n-th request (from 1) with `status(n, receipt)`, after `delayMs`. */
export async function startReceiver(
  status: (n: number, receipt: Omit<Receipt, 'answered'>) => number = () => 200,
  options: { delayMs?: number } = {},
): Promise<Receiver> {
  const receipts: Receipt[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const receipt = { n: receipts.length + 1, headers: request.headers, body: Buffer.concat(chunks).toString('utf8') };
      const answered = status(receipt.n, receipt);
      receipts.push({ ...receipt, answered });
      const answer = () => response.writeHead(answered, { 'content-type': 'text/plain' }).end(answered < 300 ? 'ok' : 'no');
      if (options.delayMs) setTimeout(answer, options.delayMs);
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    receipts,
    accepted: () => receipts.filter((receipt) => receipt.answered >= 200 && receipt.answered < 300),
    async waitFor(done, timeoutMs = 30_000) {
      const until = Date.now() + timeoutMs;
      while (!done(receipts)) {
        if (Date.now() > until) throw new Error(`the receiver did not get what was expected within ${timeoutMs} ms; it got ${JSON.stringify(receipts.map((r) => [r.headers['webhook-id'], r.answered]))}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The receipt verified with `secret` by the standardwebhooks package (throws when no signature matches). */
export function verified(secret: string, receipt: Pick<Receipt, 'headers' | 'body'>): { type: string; timestamp: string; data: Record<string, unknown> } {
  const headers = Object.fromEntries(['webhook-id', 'webhook-timestamp', 'webhook-signature'].map((name) => [name, String(receipt.headers[name])]));
  return new Webhook(secret).verify(receipt.body, headers) as { type: string; timestamp: string; data: Record<string, unknown> };
}

let counter = 0;

/** Events of the workspace itself (`search.matched`), as a writer records them; returns their public ids in order. */
export async function workspaceEvents(pool: pg.Pool, workspaceId: string, count: number): Promise<string[]> {
  const tag = `${process.pid}-${++counter}-${Date.now()}`;
  await recordEvents(
    pool,
    'events',
    Array.from({ length: count }, (_, i) => ({ type: 'search.matched' as const, dedupeKey: `test:${tag}:${i}`, workspaceId, data: { before: null, after: { rowId: `row-${i}`, path: '/v1/ads' } } })),
  );
  const { rows } = await pool.query<{ id: string }>(`SELECT 'evt_' || e."id" AS "id" FROM "market_events" e WHERE e."dedupeKey" LIKE $1 ORDER BY e."id"`, [`test:${tag}:%`]);
  return rows.map((row) => row.id);
}

/** The webhook-ids of receipts, in the order they came. */
export const idsOf = (receipts: Receipt[]) => receipts.map((receipt) => String(receipt.headers['webhook-id']));

export const QUIET = { info: () => {}, warn: () => {} };
