/**
 * Runs built services as child processes, the way they run in production: free ports,
 * readiness polling, captured output for failure messages, and a clean stop.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

/** The repository root. */
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** A port nothing listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** A running service. */
export interface ServiceProcess {
  readonly name: string;
  readonly output: () => string;
  stop(): Promise<void>;
}

/** Starts `entry` (relative to the root) and waits until `readyUrl` answers (or the TCP port opens). */
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
  const until = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${name} exited during start:\n${output}`);
    if (await isReady(ready)) break;
    if (Date.now() > until) throw new Error(`${name} not ready after 60 s:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    name,
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
