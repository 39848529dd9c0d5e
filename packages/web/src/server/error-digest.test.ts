import { describe, expect, it } from 'vitest';
import { errorDigest } from './error-digest.js';

function fail(message: string): Error {
  return new Error(message);
}

describe('errorDigest', () => {
  it('is the same for the same bug thrown twice', () => {
    const digests = [1, 2].map(() => errorDigest(fail('db down')));
    expect(digests[0]).toBe(digests[1]);
    expect(digests[0]).toMatch(/^[0-9a-f]{10}$/);
  });

  it('differs for a different message or a different place', () => {
    const here = errorDigest(fail('db down'));
    expect(errorDigest(fail('db up'))).not.toBe(here);
    expect(errorDigest(new Error('db down'))).not.toBe(here);
  });

  it('ignores directories and line numbers, so every host and replica agrees', () => {
    const at = (stack: string) => Object.assign(new Error('x'), { stack: `Error: x\n${stack}` });
    expect(errorDigest(at('    at load (/srv/app/dist/page.js:10:5)'))).toBe(
      errorDigest(at('    at load (/home/ci/clone/dist/page.js:12:9)')),
    );
    expect(errorDigest(at('    at load (/srv/app/dist/page.js:10:5)'))).not.toBe(
      errorDigest(at('    at save (/srv/app/dist/page.js:10:5)')),
    );
  });

  it('handles thrown non-errors', () => {
    expect(errorDigest('boom')).toBe(errorDigest('boom'));
    expect(errorDigest(undefined)).toMatch(/^[0-9a-f]{10}$/);
  });
});
