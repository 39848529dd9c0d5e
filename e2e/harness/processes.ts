/**
 * Runs built services as child processes, the way they run in production: free ports,
 * readiness polling, captured output for failure messages, and a clean stop.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { PortTakenError, listensOn, onFreePort, type PortPicking } from '@strata/testing';

/** The repository root. */
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export { PortTakenError, freePort } from '@strata/testing';

/** The loopback URL of a port. */
export const localUrl = (port: number) => `http://127.0.0.1:${port}`;

/** A running service. */
export interface ServiceProcess {
  readonly name: string;
  readonly pid: number;
  readonly output: () => string;
  stop(): Promise<void>;
}

/**
 * Starts `entry` (relative to the root) and waits until `readyUrl` answers (or the TCP port
 * opens) from a socket the child itself listens on; throws `PortTakenError` when another process
 * answers there.
 */
export async function startProcess(
  name: string,
  entry: string,
  env: Record<string, string>,
  ready: { url?: string; port?: number },
): Promise<ServiceProcess> {
  if (!existsSync(`${ROOT}${entry}`))
    throw new Error(`${entry} is missing: run \`npm run build\` first`);
  const child: ChildProcess = spawn(process.execPath, [entry], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const port = ready.port ?? Number(new URL(ready.url ?? '').port);
  const until = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${name} exited during start:\n${output}`);
    if (await isReady(ready)) {
      if ((await listensOn(child.pid ?? 0, port)) !== false) break;
      child.kill('SIGKILL');
      await exited;
      throw new PortTakenError(name, port);
    }
    if (Date.now() > until) throw new Error(`${name} not ready after 60 s:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    name,
    pid: child.pid ?? 0,
    output: () => output,
    async stop() {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** A service started by `startOnFreePort`, with the port it listens on. */
export interface PortedProcess extends ServiceProcess {
  readonly port: number;
}

/**
 * Starts `entry` on a free port: `envFor(port)` gives its environment and `readyFor(port)` its
 * readiness check. A port another process took between the pick and the bind is picked again.
 */
export async function startOnFreePort(
  name: string,
  entry: string,
  envFor: (port: number) => Record<string, string>,
  readyFor: (port: number) => { url?: string; port?: number },
  picking: PortPicking = {},
): Promise<PortedProcess> {
  return onFreePort(
    async (port) => ({ ...(await startProcess(name, entry, envFor(port), readyFor(port))), port }),
    picking,
  );
}

async function isReady(ready: { url?: string; port?: number }): Promise<boolean> {
  if (ready.url)
    return fetch(ready.url).then(
      (response) => response.ok,
      () => false,
    );
  const { connect } = await import('node:net');
  return new Promise((resolve) => {
    const socket = connect(ready.port ?? 0, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
