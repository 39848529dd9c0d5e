/**
 * Database adapter for PGlite running in a worker thread (pglite-worker.ts): the same SQL,
 * migrations and results as the in-thread adapter, but the WASM engine's work no longer shares
 * the gRPC thread with protobuf encoding and HTTP/2 (bench/data/RESULTS.md). Rows come back by
 * structured clone; a transaction's statements all run inside one PGlite transaction in the worker.
 */
import { Worker } from 'node:worker_threads';
import type { Database, SqlClient } from './database.js';
import {
  fromWorkerError,
  type WorkerOptions,
  type WorkerReply,
  type WorkerRequest,
} from './pglite-worker-protocol.js';

type Pending = { resolve(value: unknown): void; reject(error: Error): void };
type WithoutId<T> = T extends unknown ? Omit<T, 'id'> : never;
type Request = WithoutId<WorkerRequest>;

/** Starts the worker; under Vitest the sources are TypeScript, loaded through tsx (dev only). */
function startWorker(options: WorkerOptions): Worker {
  if (!import.meta.url.endsWith('.ts'))
    return new Worker(new URL('./pglite-worker.js', import.meta.url), { workerData: options });
  const entry = JSON.stringify(new URL('./pglite-worker.ts', import.meta.url).href);
  const load = `import('tsx/esm/api').then(({ tsImport }) => tsImport(${entry}, ${entry}))`;
  return new Worker(load, { eval: true, workerData: options });
}

/** Opens PGlite at `dataDir` (or in memory for "memory://") inside a worker thread. */
export async function openPgliteWorkerDatabase(dataDir: string): Promise<Database> {
  const worker = startWorker({ dataDir });
  const pending = new Map<number, Pending>();
  const listeners = new Map<number, (payload: string) => void>();
  let nextId = 1;
  let exited: Error | undefined;

  const ready = new Promise<void>((resolve, reject) => {
    worker.on('message', (reply: WorkerReply) => {
      if ('ready' in reply) return resolve();
      if ('notify' in reply) return listeners.get(reply.notify)?.(reply.payload);
      const call = pending.get(reply.id);
      pending.delete(reply.id);
      if (reply.ok) call?.resolve(reply.value);
      else call?.reject(fromWorkerError(reply.error));
    });
    const fail = (error: Error) => {
      exited = error;
      reject(error);
      for (const call of pending.values()) call.reject(error);
      pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`PGlite worker exited (code ${code})`)));
  });

  function send<T>(request: Request): Promise<T> {
    if (exited) return Promise.reject(exited);
    const id = nextId++;
    return new Promise<T>((resolve, reject) => {
      pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      // oxlint-disable-next-line unicorn/require-post-message-target-origin -- a worker, not a window
      worker.postMessage({ ...request, id } as WorkerRequest);
    });
  }

  const client = (tx?: number): SqlClient => ({
    query: (text, params = []) => send({ op: 'query', text, params: [...params], tx }),
    exec: (script) => send({ op: 'exec', script, tx }),
  });

  await ready;
  return {
    engine: 'pglite',
    ...client(),
    read: (text, params = []) => send({ op: 'read', text, params: [...params] }),
    async transaction(work) {
      const tx = await send<number>({ op: 'begin' });
      let result;
      try {
        result = await work(client(tx));
      } catch (error) {
        await send({ op: 'end', tx, commit: false });
        throw error;
      }
      await send({ op: 'end', tx, commit: true });
      return result;
    },
    async listen(channel, onNotify) {
      const subscription = await send<number>({ op: 'listen', channel });
      listeners.set(subscription, onNotify);
      return async () => {
        listeners.delete(subscription);
        await send({ op: 'unlisten', subscription });
      };
    },
    async close() {
      await send({ op: 'close' });
      await worker.terminate();
    },
  };
}
