/**
 * Messages between the data service and the worker thread that owns its PGlite instance
 * (pglite-worker.ts). Plain data only: everything crosses by structured clone.
 */

/** What the service asks; `tx` names an open transaction the statement belongs to. */
export type WorkerRequest =
  | { id: number; op: 'query'; text: string; params: unknown[]; tx?: number }
  | { id: number; op: 'exec'; script: string; tx?: number }
  | { id: number; op: 'read'; text: string; params: unknown[] }
  | { id: number; op: 'begin' }
  | { id: number; op: 'end'; tx: number; commit: boolean }
  | { id: number; op: 'listen'; channel: string }
  | { id: number; op: 'unlisten'; subscription: number }
  | { id: number; op: 'close' };

/** A database error flattened for cloning: its message plus fields like `code`. */
export interface WorkerError {
  message: string;
  name: string;
  fields: Record<string, unknown>;
}

/** What the worker answers: one reply per request, and notifications as they arrive. */
export type WorkerReply =
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; error: WorkerError }
  | { notify: number; payload: string }
  | { ready: true };

/** Passed as workerData. */
export interface WorkerOptions {
  dataDir: string;
}

/** Flattens an error (PGlite's DatabaseError carries code, detail, constraint…) for cloning. */
export function toWorkerError(error: unknown): WorkerError {
  if (!(error instanceof Error)) return { message: String(error), name: 'Error', fields: {} };
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(error))
    if (value === null || ['string', 'number', 'boolean'].includes(typeof value))
      fields[key] = value;
  return { message: error.message, name: error.name, fields };
}

/** Rebuilds an Error with the same message, name and fields on the service's side. */
export function fromWorkerError(flat: WorkerError): Error {
  const error = new Error(flat.message);
  error.name = flat.name;
  return Object.assign(error, flat.fields);
}
