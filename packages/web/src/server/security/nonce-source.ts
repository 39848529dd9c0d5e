/**
 * Fresh Content-Security-Policy nonces: 128 random bits each, base64. They are sliced from a
 * pooled buffer refilled from the CSPRNG (as node's own randomUUID does), because one
 * randomBytes call per response costs far more than the slice. Never reused: each slice is
 * handed out once.
 */
import { randomFillSync } from 'node:crypto';

const NONCE_BYTES = 16;
const pool = Buffer.alloc(NONCE_BYTES * 256);
let offset = pool.length;

/** A nonce no earlier call returned. */
export function freshNonce(): string {
  if (offset === pool.length) {
    randomFillSync(pool);
    offset = 0;
  }
  const nonce = pool.toString('base64', offset, offset + NONCE_BYTES);
  offset += NONCE_BYTES;
  return nonce;
}
