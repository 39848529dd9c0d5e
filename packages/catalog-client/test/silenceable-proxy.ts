/**
 * A TCP proxy whose connections can be made to go silent: bytes are dropped both ways and
 * nothing is closed, as when a peer's host vanishes.
 */
import net, { type AddressInfo } from 'node:net';

/** Listens on a free loopback port and forwards each connection to 127.0.0.1:`targetPort`. */
export async function silenceableProxy(targetPort: number) {
  const open = new Set<net.Socket>();
  const silenced = new Set<net.Socket>();
  let accepted = 0;
  const server = net.createServer((client) => {
    accepted += 1;
    open.add(client);
    const target = net.connect(targetPort, '127.0.0.1');
    client.on('data', (bytes) => void (silenced.has(client) || target.write(bytes)));
    target.on('data', (bytes) => void (silenced.has(client) || client.write(bytes)));
    const end = () => {
      open.delete(client);
      client.destroy();
      target.destroy();
    };
    for (const socket of [client, target]) socket.on('close', end).on('error', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    address: `127.0.0.1:${(server.address() as AddressInfo).port}`,
    accepted: () => accepted,
    /** Silenced connections not closed yet (by the client, since the proxy never closes one). */
    silencedStillOpen: () => [...silenced].filter((socket) => open.has(socket)).length,
    silenceAll: () => open.forEach((socket) => silenced.add(socket)),
    close: () => {
      open.forEach((socket) => socket.destroy());
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
