import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { isEmbedded } from './embedded.js';

// What the database says has changed (LISTEN/NOTIFY), heard by one connection of its own per database, for the
// answers a process keeps (the kept brand diffs, src/schema/brand-changes). Triggers (migration 0044) send the notices
// in the writing transaction, so PostgreSQL delivers them when, and only if, it commits, whoever wrote: the importers,
// the API, a statement typed by hand.
//
// An answer is marked (`mark()`) before the statement that reads it starts, and is current while no notice naming one
// of its keys has been heard since (`changedSince`). Nothing is current while the connection is not listening: before
// it first listens, while it reconnects after a loss (every answer marked before the loss is then stale, since a
// notice sent meanwhile was not heard), and on the embedded database (one backend, served to many connections: a
// notice would reach whichever connection is reading), which never listens. A connection listens only once a notice
// it sent itself came back (a pooler in transaction mode, PgBouncer's, accepts LISTEN but delivers nothing), and that
// round trip is repeated every PING_MS, so a connection that stopped hearing (or died silently) is found within
// twice that long. A TRUNCATE of a table the answers read sends `*`: every answer marked before it is stale.

/** How often the listening connection proves it still hears (a notice of its own, back within this long too). */
const PING_MS = 10_000;
/** How long after a loss the connection is opened again: doubling from the first to the last. */
const RETRY_MS = [1_000, 30_000] as const;
/** Keys remembered (the last notice of each); past this, all are forgotten and every earlier mark is stale. */
const MAX_KEYS = 100_000;
/** The channel the triggers of migration 0044 send on. */
export const CHANGES_CHANNEL = 'mi_changes';
/** The listening connection's application_name (pg_stat_activity). */
export const NOTICES_APPLICATION = 'notices';
/** The payload prefix of the connection's own notices (its proofs of hearing, caughtUp's). */
const OWN = 'own:';
/** The payload of a TRUNCATE: anything may have changed. */
const EVERYTHING = '*';

export class Notices {
  /** Notices heard: each takes the next number, `heard` holds each key's last. */
  private count = 0;
  private readonly heard = new Map<string, number>();
  /** Marks below this are stale (a loss, a TRUNCATE, or keys forgotten). */
  private floor = 0;
  private client: pg.Client | null = null;
  private ping: NodeJS.Timeout | null = null;
  private retry: NodeJS.Timeout | null = null;
  private retryMs: number = RETRY_MS[0];
  private closed = false;
  private started = false;
  private readonly waiting = new Map<string, () => void>();
  private listens = false;

  constructor(private readonly url: string, readonly channel: string = CHANGES_CHANNEL) {}

  /** Whether the connection listens now (never on the embedded database). */
  get listening(): boolean {
    return this.listens;
  }

  /** Starts listening (once; the first call comes with the first answer kept, not with the process). */
  start(): void {
    if (this.started || this.closed) return;
    this.started = true;
    void this.open();
  }

  /** Starts listening and resolves whether the connection listens (false on the embedded database, or after `timeoutMs`). */
  async listen(timeoutMs = 10_000): Promise<boolean> {
    this.start();
    const until = Date.now() + timeoutMs;
    while (!this.listens && !this.closed && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 10));
    return this.listens;
  }

  /** The mark of an answer about to be read, or null when nothing can be kept current now. */
  mark(): number | null {
    if (!this.started) this.start();
    return this.listens ? this.count : null;
  }

  /** Whether a notice naming one of `keys` may have been sent since `mark` (always, when not listening). */
  changedSince(mark: number, keys: Iterable<string>): boolean {
    return !this.listens || mark < this.floor || this.heardSince(mark, keys);
  }

  /** Whether a notice naming one of `keys` was heard since `mark` (whether or not the connection listens now). */
  heardSince(mark: number, keys: Iterable<string>): boolean {
    for (const key of keys) if ((this.heard.get(key) ?? -1) > mark) return true;
    return false;
  }

  /**
   * Resolves true once every notice of a transaction committed before the call has been heard (its own notice, sent
   * after them, comes back after them: notices arrive in commit order); false when not listening. For tests, which
   * write and then read at once.
   */
  async caughtUp(timeoutMs = 5_000): Promise<boolean> {
    const client = this.client;
    if (!client || !this.listens) return false;
    return this.roundTrip(client, timeoutMs).catch(() => false);
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    this.retry = null;
    await this.lose(this.client);
  }

  /** A notice of the connection's own, sent and heard back within `timeoutMs`. */
  private async roundTrip(client: pg.Client, timeoutMs: number): Promise<boolean> {
    const token = `${OWN}${randomUUID()}`;
    let timeout: NodeJS.Timeout | undefined;
    const heard = new Promise<boolean>((resolve) => {
      this.waiting.set(token, () => resolve(true));
      timeout = setTimeout(() => resolve(false), timeoutMs);
    });
    try {
      await client.query('SELECT pg_notify($1, $2)', [this.channel, token]);
      return await heard;
    } finally {
      clearTimeout(timeout);
      this.waiting.delete(token);
    }
  }

  private hear(key: string): void {
    if (key.startsWith(OWN)) return this.waiting.get(key)?.();
    this.count++;
    if (key === EVERYTHING || (this.heard.size >= MAX_KEYS && !this.heard.has(key))) {
      this.heard.clear();
      this.floor = this.count;
      if (key === EVERYTHING) return;
    }
    this.heard.set(key, this.count);
  }

  private async open(): Promise<void> {
    this.retry = null;
    if (this.closed) return;
    const client = new pg.Client({ connectionString: this.url, application_name: NOTICES_APPLICATION, keepAlive: true, connectionTimeoutMillis: PING_MS });
    this.client = client;
    client.on('notification', (message) => {
      if (message.channel === this.channel && message.payload) this.hear(message.payload);
    });
    client.on('error', () => void this.lose(client));
    client.on('end', () => void this.lose(client));
    try {
      await client.connect();
      if (await isEmbedded(client)) {
        this.closed = true;
        await this.lose(client);
        return;
      }
      await client.query(`LISTEN ${client.escapeIdentifier(this.channel)}`);
      if (!(await this.roundTrip(client, PING_MS))) throw new Error('notices: the connection does not hear its own notice');
      if (this.client !== client) return;
      this.listens = true;
      this.retryMs = RETRY_MS[0];
      this.ping = setInterval(() => void this.prove(client), PING_MS).unref();
    } catch {
      void this.lose(client);
    }
  }

  private async prove(client: pg.Client): Promise<void> {
    const heard = await this.roundTrip(client, PING_MS).catch(() => false);
    if (!heard) void this.lose(client);
  }

  /** The connection is gone (or is being closed): every mark so far is stale; a new one is opened unless closing. */
  private lose(client: pg.Client | null): Promise<void> {
    if (client === null || client !== this.client) return Promise.resolve();
    this.client = null;
    this.listens = false;
    this.floor = ++this.count;
    if (this.ping) clearInterval(this.ping);
    this.ping = null;
    client.removeAllListeners('notification');
    client.on('error', () => {});
    const ended = client.end().catch(() => {});
    if (!this.closed) {
      this.retry = setTimeout(() => void this.open(), this.retryMs).unref();
      this.retryMs = Math.min(this.retryMs * 2, RETRY_MS[1]);
    }
    return ended;
  }
}

/** Each pool's notices (made by connect() with its pool): none for a pool whose reads may go to a replica. */
const byPool = new WeakMap<pg.Pool, Notices>();

export function registerNotices(pool: pg.Pool, notices: Notices): void {
  byPool.set(pool, notices);
}

/** The notices of the database `pool` reads, if its reads can be kept current by them. */
export function noticesOf(pool: pg.Pool): Notices | undefined {
  return byPool.get(pool);
}
