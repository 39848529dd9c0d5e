/**
 * The digest of a server error: a stable fingerprint (same bug, same digest) shown to users
 * instead of the error, and logged with the full error so support can find it.
 */
import { createHash } from 'node:crypto';

/** 10 hex characters derived from the error's name, message and stack frames. */
export function errorDigest(error: unknown): string {
  const text =
    error instanceof Error
      ? `${error.name}:${error.message}\n${stackFrames(error.stack)}`
      : `thrown:${typeof error}:${String(error)}`;
  return createHash('sha256').update(text).digest('hex').slice(0, 10);
}

// Function and file names identify the bug; directories (which differ between hosts and
// replicas) and line/column numbers (which shift with every unrelated edit) do not.
function stackFrames(stack: string | undefined): string {
  return (stack ?? '')
    .split('\n')
    .filter((line) => line.trimStart().startsWith('at '))
    .map((line) =>
      line.trim().replace(/\(?(?:file:\/\/)?[^\s(]*[\\/]([^\\/\s]+?)(?::\d+)*\)?$/, '$1'),
    )
    .join('\n');
}
