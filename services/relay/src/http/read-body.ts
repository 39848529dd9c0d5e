/**
 * Streams a request body, decompressing as it arrives, into a sink that checks each decoded
 * chunk and refuses by throwing: so a refusal comes at the first byte over a limit, never after
 * inflating or buffering the rest (a zip bomb costs at most the limit plus one zlib chunk).
 * Accepts gzip, deflate (zlib-wrapped or raw) and br; an empty, `identity` or `utf-8`
 * Content-Encoding means none (some SDKs send those, see Relay's decompression middleware). The
 * compressed bytes are counted against `maxBodyBytes`. A refused body is read on and discarded,
 * so the answer reaches the client and the connection stays usable; past a budget the connection
 * is cut. The budget is generous (`maxBodyBytes`, at least 1 MiB) once the sender has named a
 * known DSN, and small before that: reading on is a courtesy to SDKs, and an unknown sender's
 * large body is the cheapest way to make the relay read bytes for nothing. At shutdown
 * (`readers.stopAll()`) a body still arriving is refused at once and not read on. I/O adapter
 * (streams, zlib).
 */
import type { Readable, Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate, createInflateRaw } from 'node:zlib';
import type { BodyReaders } from './body-readers.js';
import { RelayError } from '../errors.js';
import type { RefusedBodyRate } from '../limits/refused-body-rate.js';

/** Size limit of the body as sent. */
export interface BodyLimits {
  readonly maxBodyBytes: number;
}

/** Takes each decoded chunk; throws (a `RelayError`) to refuse the body. */
export type BodySink = (chunk: Buffer) => void;

/** What a read needs besides the body: shutdown tracking, and who is sending. */
export interface ReadContext {
  readonly readers?: BodyReaders | undefined;
  /** Whether the sender has named a known DSN yet (decides how much of a refused body is read). */
  readonly senderKnown?: (() => boolean) | undefined;
  /** How fast refused bodies are read on, all together (unmetered when absent). */
  readonly refusedRate?: RefusedBodyRate | undefined;
}

type Encoding = 'none' | 'gzip' | 'deflate' | 'br';

/** A known sender's refused body is read on for at least this much, so a client slightly over a limit reads its 413. */
const MIN_DISCARD_BYTES = 1024 * 1024;
/** How much more of a refused body is read from a sender that named no known DSN. */
const UNKNOWN_SENDER_DISCARD_BYTES = 64 * 1024;

/** Normalises Content-Encoding to a decoder name, 'none', or null when unsupported. */
export function normalizeEncoding(raw: string | undefined): Encoding | null {
  const value = (raw ?? '').trim().toLowerCase();
  if (value === '' || value === 'identity' || value === 'utf-8' || value === 'utf8') return 'none';
  if (value === 'gzip' || value === 'x-gzip') return 'gzip';
  if (value === 'deflate') return 'deflate';
  if (value === 'br') return 'br';
  return null;
}

/** Reads the body into `sink`; rejects with the sink's error or a 413/415/400 `RelayError`. */
export function readBody(
  stream: Readable,
  contentEncoding: string | undefined,
  contentLength: string | undefined,
  limits: BodyLimits,
  sink: BodySink,
  context: ReadContext = {},
): Promise<void> {
  const { readers } = context;
  const encoding = normalizeEncoding(contentEncoding);
  if (encoding === null) {
    discardRest(stream, discardBudget(limits, context), context);
    return Promise.reject(
      new RelayError(
        'RELAY_ENCODING_UNSUPPORTED',
        `Content-Encoding "${contentEncoding}" is not supported (use gzip, deflate or br)`,
      ),
    );
  }
  if (contentLength !== undefined && Number(contentLength) > limits.maxBodyBytes) {
    discardRest(stream, discardBudget(limits, context), context);
    return Promise.reject(tooLarge(limits.maxBodyBytes));
  }
  return new Promise<void>((resolve, reject) => {
    let received = 0;
    let decoder: Transform | undefined;
    let pending: Buffer | undefined;
    let settled = false;
    let untrack = (): void => undefined;

    const cleanup = () => {
      // Nothing more is read unless `discardRest` takes over.
      stream.pause();
      stream.off('data', onData);
      stream.off('end', onEnd);
      stream.off('error', onStreamError);
      stream.off('close', onClose);
      untrack();
      decoder?.destroy();
    };
    const fail = (error: unknown, discard: boolean) => {
      if (settled) return;
      settled = true;
      cleanup();
      if (discard) discardRest(stream, discardBudget(limits, context), context);
      reject(error);
    };
    const succeed = () => {
      if (settled) return;
      settled = true;
      cleanup();
      resolve();
    };
    const deliver = (chunk: Buffer) => {
      if (settled) return;
      try {
        sink(chunk);
      } catch (error) {
        fail(error, true);
      }
    };
    const startDecoder = (first: Buffer): Transform => {
      const created = createDecoder(encoding as Exclude<Encoding, 'none'>, first);
      created.on('data', deliver);
      created.on('end', succeed);
      created.on('error', (error) =>
        fail(
          new RelayError('RELAY_ENCODING_INVALID', `the body is not valid ${encoding} data`, {
            cause: error,
          }),
          true,
        ),
      );
      created.on('drain', () => stream.resume());
      return created;
    };
    const decode = (chunk: Buffer) => {
      // Raw deflate and zlib-wrapped deflate are told apart by the first two bytes.
      const bytes = pending ? Buffer.concat([pending, chunk]) : chunk;
      if (!decoder && encoding === 'deflate' && bytes.length < 2) {
        pending = bytes;
        return;
      }
      pending = undefined;
      decoder ??= startDecoder(bytes);
      if (!decoder.write(bytes)) stream.pause();
    };
    function onData(chunk: Buffer) {
      received += chunk.length;
      if (received > limits.maxBodyBytes) {
        fail(tooLarge(limits.maxBodyBytes), true);
      } else if (encoding === 'none') deliver(chunk);
      else decode(chunk);
    }
    function onEnd() {
      if (encoding === 'none') return succeed();
      if (!decoder) decoder = startDecoder(pending ?? Buffer.alloc(0));
      decoder.end(pending);
      pending = undefined;
    }
    function onStreamError(error: Error) {
      fail(
        new RelayError('RELAY_ENCODING_INVALID', 'the request body could not be read', {
          cause: error,
        }),
        false,
      );
    }
    function onClose() {
      if (!stream.readableEnded) onStreamError(new Error('the client closed the connection'));
    }
    function onAbort() {
      fail(
        new RelayError('RELAY_SHUTTING_DOWN', 'the relay is shutting down', {
          headers: { connection: 'close' },
        }),
        false,
      );
    }
    untrack = readers?.track(onAbort) ?? untrack;
    if (settled) return;
    stream.on('data', onData);
    stream.on('end', onEnd);
    stream.on('error', onStreamError);
    stream.on('close', onClose);
  });
}

function createDecoder(encoding: Exclude<Encoding, 'none'>, first: Buffer): Transform {
  if (encoding === 'gzip') return createGunzip();
  if (encoding === 'br') return createBrotliDecompress();
  return hasZlibHeader(first) ? createInflate() : createInflateRaw();
}

/**
 * Reads and drops what is left of a refused body, so the answer is read by the client and the
 * connection can carry the next request; a client sending more than `budget` bytes is cut off.
 * Reading pauses whenever refused bodies together are over their rate, and stops at shutdown.
 */
function discardRest(stream: Readable, budget: number, context: ReadContext): void {
  if (stream.readableEnded || stream.destroyed) return;
  let dropped = 0;
  let paused: ReturnType<typeof setTimeout> | undefined;
  const untrack = context.readers?.track(() => stream.destroy()) ?? (() => undefined);
  stream.on('data', (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped > budget) {
      stream.destroy();
      return;
    }
    const wait = context.refusedRate?.take(chunk.length, Date.now()) ?? 0;
    if (wait > 0 && paused === undefined) {
      stream.pause();
      paused = setTimeout(() => {
        paused = undefined;
        stream.resume();
      }, wait);
    }
  });
  stream.once('close', () => {
    clearTimeout(paused);
    untrack();
  });
  stream.on('error', () => undefined);
  stream.resume();
}

/** How much more of a refused body is read before the connection is cut. */
function discardBudget(limits: BodyLimits, context: ReadContext): number {
  return context.senderKnown?.()
    ? Math.max(limits.maxBodyBytes, MIN_DISCARD_BYTES)
    : UNKNOWN_SENDER_DISCARD_BYTES;
}

function hasZlibHeader(data: Buffer): boolean {
  return data.length >= 2 && (data[0]! & 0x0f) === 8 && ((data[0]! << 8) | data[1]!) % 31 === 0;
}

function tooLarge(limit: number): RelayError {
  return new RelayError('RELAY_BODY_TOO_LARGE', `the request body exceeds ${limit} bytes`);
}
