/**
 * Worker thread that owns the PGlite instance, so queries (WASM, synchronous while they run) do
 * not block the gRPC thread's encoding and I/O. It runs exactly the statements it is sent.
 * A transaction stays open inside PGlite's own transaction() until the service ends it, and
 * PGlite queues every other statement behind it, so transactions stay atomic.
 */
import { PGlite, type Transaction } from '@electric-sql/pglite';
import { mkdirSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import {
  toWorkerError,
  type WorkerOptions,
  type WorkerReply,
  type WorkerRequest,
} from './pglite-worker-protocol.js';
import { NUMBER_PARSERS } from './pglite-parsers.js';
import { createPgliteReadPath } from './pglite-read-path.js';

interface OpenTransaction {
  tx: Transaction;
  /** Lets PGlite's transaction() callback return (COMMIT) or throw (ROLLBACK). */
  end(commit: boolean): void;
  /** Settles once COMMIT or ROLLBACK has run. */
  settled: Promise<void>;
}

const port = parentPort!;
// oxlint-disable-next-line unicorn/require-post-message-target-origin -- a worker port, not a window
const post = (reply: WorkerReply) => port.postMessage(reply);
const ROLLBACK = Symbol('rollback');

const { dataDir } = workerData as WorkerOptions;
if (!dataDir.startsWith('memory://')) mkdirSync(dataDir, { recursive: true });
const db = await PGlite.create(dataDir, { parsers: NUMBER_PARSERS });
const read = createPgliteReadPath(db);
const transactions = new Map<number, OpenTransaction>();
const subscriptions = new Map<number, () => Promise<void>>();
let nextId = 1;

/** Opens a transaction (queued behind whatever PGlite is running) and resolves to its id. */
function begin(): Promise<number> {
  const id = nextId++;
  return new Promise<number>((begun, failed) => {
    const settled: Promise<void> = db
      .transaction(
        (tx) =>
          new Promise<void>((commit, rollback) => {
            const end = (ok: boolean) => (ok ? commit() : rollback(ROLLBACK));
            transactions.set(id, { tx, end, settled });
            begun(id);
          }),
      )
      .then(
        () => undefined,
        (error: unknown) => {
          if (error !== ROLLBACK) throw error;
        },
      )
      .finally(() => transactions.delete(id));
    // Only matters when BEGIN itself fails; afterwards `begun` has already settled.
    settled.catch(failed);
  });
}

function target(tx: number | undefined): Pick<PGlite, 'query' | 'exec'> {
  if (tx === undefined) return db;
  const open = transactions.get(tx);
  if (!open) throw new Error(`transaction ${tx} is not open`);
  return open.tx;
}

async function handle(request: WorkerRequest): Promise<unknown> {
  switch (request.op) {
    case 'query': {
      const result = await target(request.tx).query(request.text, request.params);
      return { rows: result.rows, affectedRows: result.affectedRows ?? 0 };
    }
    case 'read':
      return read(request.text, request.params);
    case 'exec':
      await target(request.tx).exec(request.script);
      return undefined;
    case 'begin':
      return begin();
    case 'end': {
      const open = transactions.get(request.tx);
      if (!open) throw new Error(`transaction ${request.tx} is not open`);
      open.end(request.commit);
      return open.settled;
    }
    case 'listen': {
      const subscription = nextId++;
      const unlisten = await db.listen(request.channel, (payload) =>
        post({ notify: subscription, payload }),
      );
      subscriptions.set(subscription, unlisten);
      return subscription;
    }
    case 'unlisten':
      await subscriptions.get(request.subscription)?.();
      subscriptions.delete(request.subscription);
      return undefined;
    case 'close':
      await db.close();
      return undefined;
  }
}

port.on('message', (request: WorkerRequest) => {
  handle(request).then(
    (value) => post({ id: request.id, ok: true, value }),
    (error: unknown) => post({ id: request.id, ok: false, error: toWorkerError(error) }),
  );
});
post({ ready: true });
