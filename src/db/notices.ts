import pg from 'pg';
import { isEmbedded } from './embedded.js';

// What the database says has changed (LISTEN/NOTIFY), heard by one connection of its own per database, for the
// answers a process keeps (the kept brand diffs, src/schema/brand-changes). Triggers send the notices in the writing
// transaction, so PostgreSQL delivers them when, and only if, it commits, whoever wrote: the importers, the API, a
// statement typed by hand.
//
// An answer is marked (`mark()`) before the statement that reads it starts, and is current while no notice naming one
// of its keys has been heard since (`changedSince`). Nothing is current while the connection is not listening: before
// it first listens, while it reconnects after a loss (every answer marked before the loss is then stale, since a
// notice sent meanwhile was not heard), and on the embedded database (one backend, served to many connections: a
// notice would reach whichever connection is reading), which never listens. The connection is checked every
// PING_MS, so a silently dead one is found within that long.

/** How often the listening connection is checked, and how long a check may take. */
const PING_MS = 10_000;
/** How long after a loss the connection is opened again. */
const RETRY_MS = 1_000;
/** Keys remembered (the last notice of each); past this, all are forgotten and every earlier mark is stale. */
const MAX_KEYS = 100_000;
/** The channel the triggers of migration 0044 send on. */
export const CHANGES_CHANNEL = 'changes';
/** The payload prefix of caughtUp's own notices. */
const SYNC = 'sync:';

export class Notices {
  /** Notices heard: each takes the next number, `heard` holds each key's last. */
  private count = 0;
  private readonly heard = new Map<string, number>();
  /** Marks below this are stale (a loss, or keys forgotten). */
  private floor = 0;
  private client: pg.Client | null = null;
  private timer: NodeJS.Timeout | null = null;
  private closed = false;
  private started = false;
  private syncs = 0;
  private readonly waiting = new Map<string, () => void>();
  /** Whether the connection listens now (false on the embedded database, for good). */
  listening = false;

  constructor(private readonly url: string, readonly channel: string) {}

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
    while (!this.listening && !this.closed && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 10));
    return this.listening;
  }

  /** The mark of an answer about to be read, or null when nothing can be kept current now. */
  mark(): number | null {
    if (!this.started) this.start();
    return this.listening ? this.count : null;
  }

  /** Whether a notice naming one of `keys` may have been sent since `mark` (always, when not listening). */
  changedSince(mark: number, keys: Iterable<string>): boolean {
    if (!this.listening || mark < this.floor) return true;
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
    if (!client || !this.listening) return false;
    const token = `${SYNC}${++this.syncs}`;
    let timeout: NodeJS.Timeout | undefined;
    const heard = new Promise<boolean>((resolve) => {
      this.waiting.set(token, () => resolve(true));
      timeout = setTimeout(() => resolve(false), timeoutMs);
    });
    await client.query('SELECT pg_notify($1, $2)', [this.channel, token]);
    const answer = await heard;
    clearTimeout(timeout);
    this.waiting.delete(token);
    return answer;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.lose();
  }

  private hear(key: string): void {
    if (key.startsWith(SYNC)) return this.waiting.get(key)?.();
    this.count++;
    if (this.heard.size >= MAX_KEYS && !this.heard.has(key)) {
      this.heard.clear();
      this.floor = this.count;
    }
    this.heard.set(key, this.count);
  }

  private async open(): Promise<void> {
    const client = new pg.Client({ connectionString: this.url, application_name: 'notices', keepAlive: true, connectionTimeoutMillis: PING_MS });
    this.client = client;
    client.on('notification', (message) => {
      if (message.channel === this.channel && message.payload) this.hear(message.payload);
    });
    client.on('error', () => this.lose(client));
    client.on('end', () => this.lose(client));
    try {
      await client.connect();
      if (await isEmbedded(client)) {
        this.closed = true;
        this.lose(client);
        return;
      }
      await client.query(`LISTEN ${client.escapeIdentifier(this.channel)}`);
      if (this.client !== client) return;
      this.listening = true;
      this.timer = setInterval(() => void this.ping(client), PING_MS).unref();
    } catch {
      this.lose(client);
    }
  }

  private async ping(client: pg.Client): Promise<void> {
    let timeout: NodeJS.Timeout | undefined;
    try {
      await Promise.race([client.query('SELECT 1'), new Promise((_, reject) => (timeout = setTimeout(() => reject(new Error('no answer')), PING_MS)))]);
    } catch {
      this.lose(client);
    } finally {
      clearTimeout(timeout);
    }
  }

  /** The connection is gone (or is being closed): every mark so far is stale; a new one is opened unless closing. */
  private lose(client: pg.Client | null = this.client): void {
    if (client === null || client !== this.client) return;
    this.client = null;
    this.listening = false;
    this.floor = ++this.count;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    client.removeAllListeners('notification');
    client.on('error', () => {});
    void client.end().catch(() => {});
    if (!this.closed) setTimeout(() => void this.open(), RETRY_MS).unref();
  }
}

/** Each pool's notices (Db.notices, made by connect()): none for a pool whose reads may go to a replica. */
const byPool = new WeakMap<object, Notices>();

export function registerNotices(pool: object, notices: Notices): void {
  byPool.set(pool, notices);
}

/** The notices of the database `pool` reads, if its reads can be kept current by them. */
export function noticesOf(pool: object): Notices | undefined {
  return byPool.get(pool);
}
