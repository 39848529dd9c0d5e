/**
 * Fresh Content-Security-Policy nonces: 144 random bits each, 24 base64 characters. A pool of
 * random bytes is refilled from the CSPRNG and encoded in one go, and each nonce is a slice of
 * that text, because one randomBytes call or one encoding per response costs far more than the
 * slice. 18 bytes are exactly 24 characters, so slices never share a byte. Never reused: each
 * slice is handed out once.
 */
import { randomFillSync } from 'node:crypto';

const NONCE_BYTES = 18;
const NONCE_CHARS = (NONCE_BYTES / 3) * 4;
const POOLED = 256;
const pool = Buffer.alloc(NONCE_BYTES * POOLED);
let encoded = '';
let offset = 0;

/** A nonce no earlier call returned. */
export function freshNonce(): string {
  if (offset === encoded.length) {
    encoded = randomFillSync(pool).toString('base64');
    offset = 0;
  }
  const nonce = encoded.slice(offset, offset + NONCE_CHARS);
  offset += NONCE_CHARS;
  return nonce;
}
