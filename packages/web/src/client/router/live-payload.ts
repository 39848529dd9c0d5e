/**
 * A payload answer as it streams in: the route record, and a promise per segment and per
 * deferred value that settles when its record arrives. A stream that ends without `end`, or
 * with a record the decoder refuses, rejects what is still pending.
 */
import {
  decodeRecord,
  type PayloadRecord,
  type RouteRecord,
} from '../../protocol/payload-records.js';
import type { DeferredOutcome } from '../../render/segment-outcome.js';
import type { SegmentState } from '../../render/segment-source.js';
import type { TrackedPromise } from '../../render/tracked-promise.js';

interface Slot<T> {
  readonly promise: Promise<T>;
  resolve(value: T): void;
  reject(reason: unknown): void;
  settled: boolean;
}

// Each slot's promise carries React's thenable fields from the moment it settles, so a
// navigation to an answer that has already arrived can commit without a microtask hop.
function slot<T>(): Slot<T> {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise: TrackedPromise<T> = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  promise.status = 'pending';
  promise.catch(() => undefined);
  const s: Slot<T> = {
    promise,
    resolve: (v) => {
      if (s.settled) return;
      s.settled = true;
      promise.status = 'fulfilled';
      promise.value = v;
      resolve(v);
    },
    reject: (r) => {
      if (s.settled) return;
      s.settled = true;
      promise.status = 'rejected';
      promise.reason = r;
      reject(r);
    },
    settled: false,
  };
  return s;
}

/** A payload being received. */
export interface LivePayload {
  /** Settles with the route record (rejects if the stream breaks before it). */
  readonly route: Promise<RouteRecord>;
  segment(id: string): Promise<SegmentState>;
  deferred(id: string, key: string): Promise<DeferredOutcome>;
  /** Resolves when `end` arrived. */
  readonly complete: Promise<void>;
  /** Cache tags seen so far, and the bytes received. */
  readonly tags: () => readonly string[];
  readonly bytes: () => number;
  /** A redirect record, if one arrived. */
  readonly redirect: () => { location: string; status: number } | undefined;
  /** The action record of an action answer. */
  readonly action: () => Extract<PayloadRecord, { type: 'action' }> | undefined;
}

/** Reads `body` (the payload stream) in the background. */
export function readPayload(body: ReadableStream<Uint8Array>): LivePayload {
  const route = slot<RouteRecord>();
  const complete = slot<void>();
  const segments = new Map<string, Slot<SegmentState>>();
  const deferreds = new Map<string, Slot<DeferredOutcome>>();
  const tags = new Set<string>();
  let bytes = 0;
  let redirect: { location: string; status: number } | undefined;
  let action: Extract<PayloadRecord, { type: 'action' }> | undefined;
  const segmentSlot = (id: string) => segments.get(id) ?? segments.set(id, slot()).get(id)!;
  const deferredSlot = (id: string, key: string) =>
    deferreds.get(`${id} ${key}`) ?? deferreds.set(`${id} ${key}`, slot()).get(`${id} ${key}`)!;

  const accept = (record: PayloadRecord) => {
    switch (record.type) {
      case 'route':
        return route.resolve(record);
      case 'segment':
        record.tags.forEach((tag) => tags.add(tag));
        return segmentSlot(record.id).resolve({
          key: record.key,
          tags: record.tags,
          private: record.private,
          outcome: { status: 'ok', data: record.data, deferred: record.deferred },
        });
      case 'error':
        return segmentSlot(record.segment).resolve({
          key: record.segment,
          tags: [],
          private: false,
          outcome: { status: 'error', digest: record.digest, message: 'A server error occurred.' },
        });
      case 'not-found':
        return segmentSlot(record.segment).resolve({
          key: record.segment,
          tags: [],
          private: false,
          outcome: { status: 'not-found' },
        });
      case 'deferred':
        return deferredSlot(record.segment, record.key).resolve(
          record.error
            ? { status: 'error', digest: record.error.digest, message: 'A server error occurred.' }
            : { status: 'ok', value: record.value },
        );
      case 'redirect':
        redirect = { location: record.location, status: record.status };
        return undefined;
      case 'action':
        action = record;
        return undefined;
      case 'end':
        return complete.resolve();
    }
  };

  const fail = (reason: unknown) => {
    for (const pending of [route, complete, ...segments.values(), ...deferreds.values()])
      if (!pending.settled) pending.reject(reason);
  };

  void (async () => {
    const reader = body
      .pipeThrough(new TextDecoderStream() as unknown as TransformStream<Uint8Array, string>)
      .getReader();
    let buffer = '';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        bytes += value.length;
        buffer += value;
        let newline = buffer.indexOf('\n');
        while (newline >= 0) {
          const line = buffer.slice(0, newline);
          buffer = buffer.slice(newline + 1);
          if (line.trim() !== '') {
            const decoded = decodeRecord(line);
            if (!decoded.ok) throw new Error(decoded.message);
            accept(decoded.record);
          }
          newline = buffer.indexOf('\n');
        }
      }
      if (!complete.settled) throw new Error('payload stream ended before its end record');
    } catch (error) {
      fail(error);
    }
  })();

  return {
    route: route.promise,
    segment: (id) => segmentSlot(id).promise,
    deferred: (id, key) => deferredSlot(id, key).promise,
    complete: complete.promise,
    tags: () => [...tags],
    bytes: () => bytes,
    redirect: () => redirect,
    action: () => action,
  };
}
