import { createConnection, createServer, type Server, type Socket } from 'node:net';

type Link = { client: Socket; upstream: Socket };

/**
 * A TCP proxy to a server (PostgreSQL, Redis) that a test can take down and bring back on the same port: down,
 * every connection through it is cut and new ones are refused (ECONNREFUSED), as when the server goes away.
 * Stalled, it keeps every connection open and accepts new ones but forwards no byte either way, as a server that
 * hangs (or a network that drops packets) does; resumed, what was held flows on.
 */
export class TcpProxy {
  private server: Server | null = null;
  private readonly links = new Set<Link>();
  private stalled = false;
  port = 0;

  constructor(private readonly target: { host: string; port: number }) {}

  async up(): Promise<void> {
    const server = createServer((client) => {
      const upstream = createConnection(this.target);
      const link = { client, upstream };
      this.links.add(link);
      const cut = () => {
        this.links.delete(link);
        client.destroy();
        upstream.destroy();
      };
      for (const socket of [client, upstream]) {
        socket.on('close', cut);
        socket.on('error', cut);
      }
      if (this.stalled) hold(link);
      else forward(link);
    });
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve));
    this.port = (server.address() as { port: number }).port;
    this.server = server;
  }

  /** Stops forwarding on every connection, open or new, without closing any. */
  stall(): void {
    this.stalled = true;
    for (const link of this.links) hold(link);
  }

  /** Forwards again, what was held first. */
  resume(): void {
    this.stalled = false;
    for (const link of this.links) forward(link);
  }

  async down(): Promise<void> {
    const server = this.server;
    this.server = null;
    this.stalled = false;
    for (const { client, upstream } of this.links) {
      client.destroy();
      upstream.destroy();
    }
    this.links.clear();
    if (server) await new Promise((resolve) => server.close(resolve));
  }
}

function forward({ client, upstream }: Link) {
  client.pipe(upstream);
  upstream.pipe(client);
}

function hold({ client, upstream }: Link) {
  client.unpipe(upstream);
  upstream.unpipe(client);
  client.pause();
  upstream.pause();
}
