/**
 * Starting something on a free port when other tests pick free ports too: a port picked free can
 * be taken by another process before the starter binds it, and is then picked again.
 */
import { freePort } from './redis-container.js';

/** Another process took the port picked for `owner` before `owner` bound it. */
export class PortTakenError extends Error {
  constructor(
    readonly owner: string,
    readonly port: number,
  ) {
    super(`${owner}: port ${port} was taken by another process before ${owner} bound it`);
  }
}

/** How `onFreePort` picks ports and how often it picks again. */
export interface PortPicking {
  readonly pickPort?: () => Promise<number>;
  readonly attempts?: number;
}

/** `start(port)` on a picked port, picked again while `start` throws `PortTakenError`. */
export async function onFreePort<T>(
  start: (port: number) => Promise<T>,
  { pickPort = freePort, attempts = 5 }: PortPicking = {},
): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await start(await pickPort());
    } catch (error) {
      if (!(error instanceof PortTakenError) || attempt >= attempts) throw error;
    }
  }
}
