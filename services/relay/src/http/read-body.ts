/**
 * Reads a request body as bytes with limits before and after decompression. Accepts gzip,
 * deflate (zlib-wrapped or raw) and br; an empty, `identity` or `utf-8` Content-Encoding means
 * none (some SDKs send those, see Relay's decompression middleware). Decompression stops at the
 * output limit, so a zip bomb costs at most that much memory. I/O adapter (streams, zlib).
 */
import type { Readable } from 'node:stream';
import { brotliDecompress, gunzip, inflate, inflateRaw } from 'node:zlib';
import { promisify } from 'node:util';
import { RelayError } from '../errors.js';

/** Size limits. */
export interface BodyLimits {
  readonly maxBodyBytes: number;
  readonly maxEnvelopeBytes: number;
}

const decoders = {
  gzip: promisify(gunzip),
  deflate: promisify(inflate),
  'deflate-raw': promisify(inflateRaw),
  br: promisify(brotliDecompress),
};

/** Normalises Content-Encoding to a decoder name, 'none', or null when unsupported. */
export function normalizeEncoding(raw: string | undefined): keyof typeof decoders | 'none' | null {
  const value = (raw ?? '').trim().toLowerCase();
  if (value === '' || value === 'identity' || value === 'utf-8' || value === 'utf8') return 'none';
  if (value === 'gzip' || value === 'x-gzip') return 'gzip';
  if (value === 'deflate') return 'deflate';
  if (value === 'br') return 'br';
  return null;
}

/** Reads and decodes the body; throws `RelayError` with 413/415/400 codes. */
export async function readBody(
  stream: Readable,
  contentEncoding: string | undefined,
  contentLength: string | undefined,
  limits: BodyLimits,
): Promise<Uint8Array> {
  const encoding = normalizeEncoding(contentEncoding);
  if (encoding === null) {
    stream.resume();
    throw new RelayError(
      'RELAY_ENCODING_UNSUPPORTED',
      `Content-Encoding "${contentEncoding}" is not supported (use gzip, deflate or br)`,
    );
  }
  if (contentLength !== undefined && Number(contentLength) > limits.maxBodyBytes) {
    stream.resume();
    throw tooLarge(limits.maxBodyBytes);
  }
  const raw = await collect(stream, limits.maxBodyBytes);
  if (encoding === 'none') {
    if (raw.length > limits.maxEnvelopeBytes) throw envelopeTooLarge(limits.maxEnvelopeBytes);
    return raw;
  }
  const decoder =
    encoding === 'deflate' && !hasZlibHeader(raw) ? decoders['deflate-raw'] : decoders[encoding];
  try {
    return await decoder(raw, { maxOutputLength: limits.maxEnvelopeBytes });
  } catch (error) {
    if (
      (error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE' ||
      error instanceof RangeError
    ) {
      throw envelopeTooLarge(limits.maxEnvelopeBytes);
    }
    throw new RelayError('RELAY_ENCODING_INVALID', `the body is not valid ${encoding} data`, {
      cause: error,
    });
  }
}

/** Collects a stream into one buffer, failing once it passes `limit` bytes. */
function collect(stream: Readable, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    let failed = false;
    stream.on('data', (chunk: Buffer) => {
      if (failed) return;
      received += chunk.length;
      if (received > limit) {
        failed = true;
        reject(tooLarge(limit));
        return;
      }
      chunks.push(chunk);
    });
    stream.on('end', () => {
      if (!failed) resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, received));
    });
    stream.on('error', (error) => {
      if (!failed)
        reject(
          new RelayError('RELAY_ENCODING_INVALID', 'the request body could not be read', {
            cause: error,
          }),
        );
    });
  });
}

function hasZlibHeader(data: Buffer): boolean {
  return data.length >= 2 && (data[0]! & 0x0f) === 8 && ((data[0]! << 8) | data[1]!) % 31 === 0;
}

function tooLarge(limit: number): RelayError {
  return new RelayError('RELAY_BODY_TOO_LARGE', `the request body exceeds ${limit} bytes`);
}

function envelopeTooLarge(limit: number): RelayError {
  return new RelayError(
    'RELAY_ENVELOPE_TOO_LARGE',
    `the decompressed envelope exceeds ${limit} bytes`,
  );
}
