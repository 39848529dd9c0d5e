import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createAnswerHandoff } from './answer-handoff.js';

const sockets: net.Socket[] = [];
const servers: net.Server[] = [];
afterEach(() => {
  for (const socket of sockets.splice(0)) socket.destroy();
  for (const server of servers.splice(0)) server.close();
});

/** A connected loopback pair: bytes written to `client` arrive as `server`'s 'data' events. */
async function loopbackPair(): Promise<{ client: net.Socket; server: net.Socket }> {
  const listener = net.createServer();
  servers.push(listener);
  const accepted = new Promise<net.Socket>((resolve) => listener.once('connection', resolve));
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  const { port } = listener.address() as net.AddressInfo;
  const client = net.connect(port, '127.0.0.1');
  await new Promise((resolve) => client.once('connect', resolve));
  const server = await accepted;
  sockets.push(client, server);
  return { client, server };
}

describe('answer handoff', () => {
  it('delivers in the order given, never synchronously', async () => {
    const handoff = createAnswerHandoff();
    const seen: string[] = [];
    const done = new Promise<void>((resolve) => {
      for (const name of ['a', 'b', 'c']) handoff(() => seen.push(name));
      handoff(resolve);
    });
    expect(seen).toEqual([]);
    await done;
    expect(seen).toEqual(['a', 'b', 'c']);
  });

  it('reads I/O that arrived during one delivery before it makes the next', async () => {
    // What the render service relies on: a request read between two page renders gets its data
    // call started (and flushed) before the second render, instead of after all of them.
    const { client, server } = await loopbackPair();
    const handoff = createAnswerHandoff();
    const seen: string[] = [];
    server.on('data', () => seen.push('socket read'));
    await new Promise<void>((resolve) => {
      handoff(() => {
        seen.push('first');
        client.write('x'); // on loopback the byte is in the server's buffer when write returns
      });
      handoff(() => seen.push('second'));
      handoff(resolve);
    });
    expect(seen).toEqual(['first', 'socket read', 'second']);
  });

  it('starts again after its queue ran dry', async () => {
    const handoff = createAnswerHandoff();
    const seen: number[] = [];
    await new Promise<void>((resolve) => handoff(resolve));
    await new Promise<void>((resolve) =>
      handoff(() => {
        seen.push(1);
        handoff(() => {
          seen.push(2);
          resolve();
        });
      }),
    );
    expect(seen).toEqual([1, 2]);
  });
});
