/**
 * Whether a port can be listened on, so `strata start`/`strata dev` say "port in use" plainly
 * instead of the render service's EADDRINUSE stack after the app has started.
 */
import { createServer } from 'node:net';

/** A port another process holds; the message says which and what to do. */
export class PortInUseError extends Error {
  override readonly name = 'PortInUseError';
  constructor(readonly port: number) {
    super(`Port ${port} is in use (another server is listening there): stop it or pass --port.`);
  }
}

/** Resolves when `host:port` is free; rejects with PortInUseError when it is taken. */
export function ensurePortFree(port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', (error: NodeJS.ErrnoException) =>
      reject(error.code === 'EADDRINUSE' ? new PortInUseError(port) : error),
    );
    probe.listen(port, host, () => probe.close(() => resolve()));
  });
}

/** A port the system picks as free (the dev server's internal one). */
export function freePort(host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, host, () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}
