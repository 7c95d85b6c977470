import { createServer, type Server, type Socket } from 'node:net';
import type { PGlite } from '@electric-sql/pglite';

// Serves one PGlite database to ordinary PostgreSQL clients on a loopback port.
//
// PGlite has ONE backend. A client's extended-protocol exchange (Parse, Bind, Describe, Execute … Sync)
// and a client's open transaction must therefore run without another client's messages in between,
// or one client's Bind meets another's statement. Each connection's messages are grouped up to a
// synchronisation point and run while holding the database; a connection inside a transaction keeps
// holding it until the transaction ends (or the connection closes, which rolls it back).
// Prepared statements live in that one backend too: each connection's statement names get a prefix of
// their own (clients name statements per connection, so two pools preparing "s1" must not meet), and
// the statements of a connection that goes away are deallocated.

const SSL_REQUEST = 80877103;
const CANCEL_REQUEST = 80877102;
/** Messages after which the client waits for the server: Sync, Query, Terminate, Flush, CopyDone, CopyFail, FunctionCall. */
const UNIT_ENDS = new Set(['S', 'Q', 'X', 'H', 'c', 'f', 'F'].map((c) => c.charCodeAt(0)));
const [PARSE, BIND, DESCRIBE, CLOSE, STATEMENT] = ['P', 'B', 'D', 'C', 'S'].map((c) => c.charCodeAt(0));

/** Where the statement name of a frontend message starts, or -1 when the message names no statement. */
function statementNameAt(message: Buffer): number {
  const type = message[0];
  if (type === PARSE) return 5;
  if (type === BIND) return message.indexOf(0, 5) + 1; // after the portal's name
  if ((type === DESCRIBE || type === CLOSE) && message[5] === STATEMENT) return 6;
  return -1;
}

/**
 * The message with its statement name (when it has one; the unnamed statement stays unnamed) prefixed,
 * and that name as the client knows it.
 */
function withStatementPrefix(message: Buffer, prefix: string): { message: Buffer; name: string | null } {
  const at = statementNameAt(message);
  if (at < 0) return { message, name: null };
  const end = message.indexOf(0, at);
  if (end === at) return { message, name: null };
  const name = message.toString('utf8', at, end);
  const renamed = Buffer.concat([message.subarray(0, at), Buffer.from(prefix, 'utf8'), message.subarray(at)]);
  renamed.writeInt32BE(renamed.length - 1, 1);
  return { message: renamed, name };
}

const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`;

class Turn {
  private tail: Promise<void> = Promise.resolve();
  owner: object | null = null;

  /** Waits for the database; resolves with the function that hands it on. */
  async acquire(who: object): Promise<() => void> {
    let release!: () => void;
    const previous = this.tail;
    this.tail = new Promise<void>((resolve) => (release = resolve));
    await previous;
    this.owner = who;
    return () => {
      this.owner = null;
      release();
    };
  }
}

export type PGliteServer = { port: number; close(): Promise<void> };

let connections = 0;

export async function servePGlite(db: PGlite, options: { host?: string; port?: number } = {}): Promise<PGliteServer> {
  const turn = new Turn();
  const sockets = new Set<Socket>();
  let closing = false;

  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.setNoDelay(true);
    const connection = {};
    const prefix = `c${++connections}_`; // unique in the process, should one database be served twice
    const statements = new Set<string>(); // the names this connection prepared, prefixed
    let started = false;
    let buffer = Buffer.alloc(0);
    let unit: Buffer[] = [];
    let held: (() => void) | null = null; // the database, kept across this connection's transaction
    let chain = Promise.resolve();

    // PGlite hands each piece of its answer as a view of its WebAssembly memory, which it overwrites with the next
    // piece; a socket that cannot send at once keeps the chunk it was given, not a copy. Each piece is copied first,
    // or a large answer reaches the client with later bytes written over earlier ones.
    const write = (data: Uint8Array) => {
      if (!socket.destroyed) socket.write(Buffer.from(data));
    };

    const run = (messages: Buffer[]) =>
      (chain = chain.then(async () => {
        const release = held ?? (await turn.acquire(connection));
        held = null;
        try {
          for (const message of messages) await db.execProtocolRawStream(new Uint8Array(message), { onRawData: write });
        } finally {
          if (db.isInTransaction() && !socket.destroyed) held = release;
          else {
            // A connection that went away inside its transaction: undo it before handing the database on.
            if (db.isInTransaction()) await db.exec('ROLLBACK').catch(() => {});
            release();
          }
        }
      }).catch(() => {
        socket.destroy();
      }));

    socket.on('data', (chunk) => {
      buffer = Buffer.concat([buffer, chunk]);
      for (;;) {
        if (!started) {
          if (buffer.length < 8) return;
          const length = buffer.readInt32BE(0);
          if (buffer.length < length) return;
          const code = buffer.readInt32BE(4);
          const message = buffer.subarray(0, length);
          buffer = buffer.subarray(length);
          if (code === SSL_REQUEST) write(Buffer.from('N'));
          else if (code === CANCEL_REQUEST) socket.end();
          else {
            started = true;
            void run([Buffer.from(message)]);
          }
          continue;
        }
        if (buffer.length < 5) return;
        const length = 1 + buffer.readInt32BE(1);
        if (buffer.length < length) return;
        const { message, name } = withStatementPrefix(Buffer.from(buffer.subarray(0, length)), prefix);
        buffer = buffer.subarray(length);
        if (name !== null && message[0] === PARSE) statements.add(prefix + name);
        if (name !== null && message[0] === CLOSE) statements.delete(prefix + name);
        unit.push(message);
        if (UNIT_ENDS.has(message[0])) {
          const messages = unit;
          unit = [];
          void run(messages);
        }
      }
    });

    const closed = () => {
      sockets.delete(socket);
      chain = chain.then(async () => {
        if (closing || (!held && statements.size === 0)) return; // a server closing with its database: nothing to clean up
        const release = held ?? (await turn.acquire(connection));
        held = null;
        try {
          // The connection went away inside its transaction: undo it before anyone else runs.
          if (db.isInTransaction()) await db.exec('ROLLBACK');
          for (const name of statements) await db.exec(`DEALLOCATE ${quoteIdent(name)}`).catch(() => {}); // a failed Parse left none
        } finally {
          release();
        }
      }).catch(() => {});
    };
    socket.on('close', closed);
    socket.on('error', () => socket.destroy());
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve);
  });
  const { port } = server.address() as { port: number };
  return {
    port,
    async close() {
      closing = true;
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
