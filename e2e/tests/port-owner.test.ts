/**
 * The harness counts a service ready only once the service itself listens on its port: another
 * test's server on a port picked for a service answered the readiness check in its place.
 */
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { listeningInodes, listensOn, parentOf, treeListensOn } from '@strata/testing';
import {
  PortTakenError,
  freePort,
  startOnFreePort,
  startProcess,
  type ServiceProcess,
} from '../harness/processes.js';

const TABLE = [
  '  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode',
  '   0: 0100007F:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 4242 1 0 100 0 0 10 0',
  '   1: 0100007F:1F90 0100007F:D431 01 00000000:00000000 00:00000000 00000000  1000        0 4343 1 0 20 4 30 10 -1',
  '   2: 00000000:1F91 00000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 4444 1 0 100 0 0 10 0',
].join('\n');

const DATA_ENTRY = 'services/data/dist/main.js';
const dataEnv = (port: number) => ({
  DATA_PORT: String(port),
  DATA_DIR: 'memory://',
  LOG_LEVEL: 'warn',
});

const servers: Server[] = [];
const services: ServiceProcess[] = [];
afterEach(async () => {
  for (const service of services.splice(0)) await service.stop();
  for (const server of servers.splice(0)) await new Promise((done) => server.close(done));
});

/** A server of this test process holding a port, as another test's server would. */
async function occupiedPort(): Promise<number> {
  const server = createServer((socket) => socket.destroy());
  servers.push(server);
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  return typeof address === 'object' && address ? address.port : 0;
}

describe('the listening sockets in a /proc/net table', () => {
  it('are the rows in the LISTEN state on the port, not its connections or other ports', () => {
    expect(listeningInodes(TABLE, 8080)).toEqual(['4242']);
    expect(listeningInodes(TABLE, 8081)).toEqual(['4444']);
    expect(listeningInodes(TABLE, 8082)).toEqual([]);
  });
});

describe('who listens on a port', () => {
  it('is this process for its own server, and not another process', async () => {
    const port = await occupiedPort();
    expect(await listensOn(process.pid, port)).toBe(true);
    const other = spawn('sleep', ['5']);
    try {
      expect(await listensOn(other.pid ?? 0, port)).toBe(false);
    } finally {
      other.kill();
    }
  });

  it('is nobody on a port nothing listens on', async () => {
    expect(await listensOn(process.pid, await freePort())).toBe(false);
  });
});

describe('the parent in a /proc/<pid>/stat line', () => {
  it('is the fourth field, whatever the process name holds', () => {
    expect(parentOf('4711 (node) S 4700 4690 4690 0 -1 4194560 1200 0 0 0')).toBe(4700);
    expect(parentOf('4712 (npm exec ) (x)) R 4711 4690 4690 0 -1')).toBe(4711);
  });
});

describe('who listens on a port, in a process tree', () => {
  it('is the tree of a command whose child holds the listener, and not a tree outside it', async () => {
    // sh starts node, which listens: the listener is not the command itself.
    const script = `require('node:net').createServer().listen(0, '127.0.0.1', function () { console.log(this.address().port) })`;
    const command = spawn('sh', ['-c', `${JSON.stringify(process.execPath)} -e "${script}"; :`], {
      detached: true, // a group of its own, ended as one below
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const bystander = spawn('sleep', ['5']);
    try {
      const port = await new Promise<number>((resolve) =>
        command.stdout!.once('data', (chunk: Buffer) => resolve(Number(chunk.toString()))),
      );
      expect(await listensOn(command.pid!, port)).toBe(false);
      expect(await treeListensOn(command.pid!, port)).toBe(true);
      expect(await treeListensOn(bystander.pid!, port)).toBe(false);
    } finally {
      bystander.kill();
      process.kill(-command.pid!, 'SIGKILL');
    }
  });
});

describe('starting a service on a port another process took', () => {
  it('fails with PortTakenError instead of taking the other server for the service', async () => {
    const port = await occupiedPort();
    const start = startProcess('data', DATA_ENTRY, dataEnv(port), { port });
    await expect(start).rejects.toBeInstanceOf(PortTakenError);
    await expect(start).rejects.toThrow(`port ${port} was taken`);
  });

  it('picks another port and starts there', async () => {
    const taken = await occupiedPort();
    const picks = [taken];
    const data = await startOnFreePort('data', DATA_ENTRY, dataEnv, (port) => ({ port }), {
      pickPort: async () => picks.shift() ?? freePort(),
    });
    services.push(data);
    expect(data.port).not.toBe(taken);
    expect(picks).toEqual([]);
    expect(await listensOn(data.pid, data.port)).toBe(true);
  });

  it('gives up after its attempts with the last PortTakenError', async () => {
    const taken = await occupiedPort();
    const start = startOnFreePort('data', DATA_ENTRY, dataEnv, (port) => ({ port }), {
      pickPort: async () => taken,
      attempts: 2,
    });
    await expect(start).rejects.toBeInstanceOf(PortTakenError);
  });
});
