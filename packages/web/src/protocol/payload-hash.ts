/**
 * The `_p` query value: a hash of the headers that shape a payload answer, so caches between
 * browser and server that ignore `Vary` never mix answers for different trees. Synchronous and
 * identical in Node and browsers (two FNV-1a passes; not a security measure).
 */

function fnv1a(text: string, seed: number): number {
  let hash = seed >>> 0;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/** The `_p` value for a payload request. */
export function payloadHash(headers: { tree: string; prefetch: string | undefined }): string {
  const input = `${headers.prefetch ?? '0'},${headers.tree}`;
  return (
    fnv1a(input, 0x811c9dc5).toString(36).padStart(7, '0') +
    fnv1a(input, 0x050c5d1f).toString(36).padStart(7, '0')
  );
}
