import { describe, expect, it } from 'vitest';
import { freshNonce } from './nonce-source.js';

describe('freshNonce', () => {
  it('gives 144-bit base64 nonces, none twice, across several refills of its pool', () => {
    const nonces = Array.from({ length: 1000 }, freshNonce);
    for (const nonce of nonces) expect(nonce).toMatch(/^[A-Za-z0-9+/]{24}$/);
    expect(Buffer.from(nonces[0]!, 'base64')).toHaveLength(18);
    expect(new Set(nonces).size).toBe(nonces.length);
  });
});
