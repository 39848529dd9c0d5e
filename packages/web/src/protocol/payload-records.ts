/**
 * Records of a payload stream: one JSON object per line, each with a `type` and the protocol
 * version `v`. Named fields only. The decoder is total: it returns an error value for anything
 * it does not understand, and the browser then falls back to a full page load.
 */
import { PROTOCOL_VERSION } from './constants.js';

/** One segment of the target route, as the route record lists it. */
export interface RouteSegmentRef {
  readonly id: string;
  readonly key: string;
}

/** First record: which route answered and which of its segments follow. */
export interface RouteRecord {
  readonly type: 'route';
  readonly v: 1;
  readonly build: string;
  readonly route: string;
  readonly pattern: string;
  /** Id of the root layout (a different one means a full page load). */
  readonly root: string;
  readonly params: Readonly<Record<string, string>>;
  readonly segments: readonly RouteSegmentRef[];
  /** Index of the first segment whose data follows; the ones before are reused from the browser. */
  readonly from: number;
  /** Index after the last segment whose data follows (an `auto` prefetch stops at a loading boundary). */
  readonly until: number;
}

/** A segment's data. */
export interface SegmentRecord {
  readonly type: 'segment';
  readonly v: 1;
  readonly id: string;
  readonly key: string;
  readonly data: unknown;
  readonly tags: readonly string[];
  /** Read cookies or headers: never shared between users. */
  readonly private: boolean;
  /** Keys of deferred values that follow in `deferred` records. */
  readonly deferred: readonly string[];
}

/** A deferred value of a segment, resolved or failed. */
export interface DeferredRecord {
  readonly type: 'deferred';
  readonly v: 1;
  readonly segment: string;
  readonly key: string;
  readonly value?: unknown;
  readonly error?: { readonly digest: string };
}

/** A segment's loader failed; the browser shows the nearest error view. */
export interface ErrorRecord {
  readonly type: 'error';
  readonly v: 1;
  readonly segment: string;
  readonly digest: string;
}

/** A segment's loader said not found. */
export interface NotFoundRecord {
  readonly type: 'not-found';
  readonly v: 1;
  readonly segment: string;
}

/** Go elsewhere instead. */
export interface RedirectRecord {
  readonly type: 'redirect';
  readonly v: 1;
  readonly location: string;
  readonly status: 303 | 307 | 308;
}

/** The outcome of a server action (first record of an action answer). */
export interface ActionRecord {
  readonly type: 'action';
  readonly v: 1;
  readonly ok: boolean;
  /** The action's return value (ok) or its validation errors by field (not ok). */
  readonly result?: unknown;
  readonly fieldErrors?: Readonly<Record<string, readonly string[]>>;
  /** Cache tags the action invalidated. */
  readonly revalidated: readonly string[];
}

/** Last record: the stream is complete (a stream without it was cut off). */
export interface EndRecord {
  readonly type: 'end';
  readonly v: 1;
}

/** Any payload record. */
export type PayloadRecord =
  | RouteRecord
  | SegmentRecord
  | DeferredRecord
  | ErrorRecord
  | NotFoundRecord
  | RedirectRecord
  | ActionRecord
  | EndRecord;

type Distribute<T> = T extends PayloadRecord ? Omit<T, 'v'> : never;

/** Encodes a record as one line (with its trailing newline). */
export function encodeRecord(record: Distribute<PayloadRecord>): string {
  return `${JSON.stringify({ ...record, v: PROTOCOL_VERSION })}\n`;
}

const TYPES = new Set([
  'route',
  'segment',
  'deferred',
  'error',
  'not-found',
  'redirect',
  'action',
  'end',
]);

/** Decodes one line. */
export function decodeRecord(
  line: string,
): { ok: true; record: PayloadRecord } | { ok: false; message: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    return { ok: false, message: 'payload line is not JSON' };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    return { ok: false, message: 'payload record is not an object' };
  const record = parsed as { type?: unknown; v?: unknown };
  if (record.v !== PROTOCOL_VERSION)
    return { ok: false, message: `payload record version ${String(record.v)} is not supported` };
  if (typeof record.type !== 'string' || !TYPES.has(record.type))
    return { ok: false, message: 'payload record type is unknown' };
  return { ok: true, record: parsed as PayloadRecord };
}
