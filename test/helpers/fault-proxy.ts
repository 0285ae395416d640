import { connect, createServer, type Server, type Socket } from 'node:net';

/**
 * A small TCP fault proxy on loopback for fault tests: put it between the service and
 * PostgreSQL, Redis, the platform or a webhook receiver, then cut, refuse or slow connections.
 */
export interface FaultProxy {
  /** host:port to hand the service instead of the real target. */
  host: string;
  port: number;
  /** Destroys every open connection (like a server restart or a network cut). */
  cut(): void;
  /** While down, the port refuses connections (as a stopped server's does) and open ones are cut. */
  setDown(down: boolean): Promise<void>;
  /** Delays every chunk in both directions by this many ms. */
  setLatency(ms: number): void;
  /**
   * While frozen, connections (open and new) stay open but no byte passes in either direction,
   * like a hung server or a silent network; unfreezing delivers what was held, in order.
   */
  setFrozen(frozen: boolean): void;
  /**
   * While set, a new connection passes its client's first chunk (PostgreSQL's startup message),
   * so the server's handshake completes, and then holds every later byte from the client: the
   * connection is open and ready, but its first statement never reaches the server.
   */
  setHoldAfterStartup(hold: boolean): void;
  close(): Promise<void>;
}

export async function startFaultProxy(target: { host: string; port: number }): Promise<FaultProxy> {
  const sockets = new Set<Socket>();
  let latency = 0;
  let frozen = false;
  let holdAfterStartup = false;
  const held: (() => void)[] = [];

  const pipe = (from: Socket, to: Socket, holdAfterFirst = false) => {
    let chunks = 0;
    from.on('data', (chunk) => {
      if (holdAfterFirst && chunks++ > 0) return; // never delivered: the connection only looks alive
      if (frozen) {
        held.push(() => {
          if (!to.destroyed) to.write(chunk);
        });
      } else if (latency > 0) {
        from.pause();
        setTimeout(() => {
          if (!to.destroyed) to.write(chunk);
          from.resume();
        }, latency);
      } else if (!to.destroyed) to.write(chunk);
    });
    from.on('end', () => to.end());
    from.on('error', () => to.destroy());
    from.on('close', () => to.destroy());
  };

  const server: Server = createServer((client) => {
    const upstream = connect(target.port, target.host);
    sockets.add(client);
    sockets.add(upstream);
    client.on('close', () => sockets.delete(client));
    upstream.on('close', () => sockets.delete(upstream));
    pipe(client, upstream, holdAfterStartup);
    pipe(upstream, client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('proxy did not bind');

  const cut = () => {
    for (const s of sockets) s.destroy();
    sockets.clear();
  };
  return {
    host: '127.0.0.1',
    port: address.port,
    cut,
    async setDown(value) {
      if (value && server.listening) {
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        cut();
        await closed;
      } else if (!value && !server.listening) {
        await new Promise<void>((resolve) => server.listen(address.port, '127.0.0.1', resolve));
      }
    },
    setLatency(ms) {
      latency = ms;
    },
    setHoldAfterStartup(value) {
      holdAfterStartup = value;
    },
    setFrozen(value) {
      frozen = value;
      if (!value) for (const deliver of held.splice(0)) deliver();
    },
    close() {
      cut();
      return new Promise((resolve) => (server.listening ? server.close(() => resolve()) : resolve()));
    },
  };
}
