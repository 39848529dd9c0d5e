import type { LoadedSegment } from '@strata/web/server';
import { describe, expect, it } from 'vitest';
import {
  decodeEntry,
  encodeEntry,
  toLoadedSegment,
  uncacheableReason,
  utf8Length,
} from './entry-codec.js';

const entry = {
  key: 'bench-item(p.id=1)',
  tags: ['item:1'],
  data: { title: 'Tea ☕' },
  storedAt: 5,
};

function loaded(overrides: Partial<LoadedSegment> = {}): LoadedSegment {
  return {
    id: 'bench-item',
    key: 'bench-item(p.id=1)',
    tags: ['item:1'],
    private: false,
    outcome: { status: 'ok', data: { a: 1 }, deferred: [] },
    deferred: new Map(),
    ...overrides,
  };
}

describe('entry codec', () => {
  it('round-trips an entry with a version field', () => {
    const encoded = encodeEntry(entry, 10_000);
    expect(encoded.ok && JSON.parse(encoded.body).v).toBe(1);
    expect(encoded.ok && decodeEntry(encoded.body)).toEqual({ v: 1, ...entry });
    expect(encoded.ok && encoded.bytes).toBe(encoded.ok && Buffer.byteLength(encoded.body));
  });

  it.each([
    ['another version', '{"v":2,"key":"k","tags":[],"data":1,"storedAt":1}'],
    ['no version', '{"key":"k","tags":[],"data":1,"storedAt":1}'],
    ['tags not strings', '{"v":1,"key":"k","tags":[1],"data":1,"storedAt":1}'],
    ['no data', '{"v":1,"key":"k","tags":[],"storedAt":1}'],
    ['not JSON', '{"v":1,'],
    ['not an object', '"v"'],
    ['null', 'null'],
  ])('decodes %s as null, without throwing', (_name, body) => {
    expect(decodeEntry(body)).toBeNull();
  });

  it('refuses an entry over the size cap, counting UTF-8 bytes', () => {
    const body = JSON.stringify({ v: 1, ...entry });
    const bytes = Buffer.byteLength(body);
    expect(encodeEntry(entry, bytes).ok).toBe(true);
    expect(encodeEntry(entry, bytes - 1)).toEqual({ ok: false, reason: 'too-large' });
    expect(encodeEntry({ ...entry, data: 10n }, 10_000)).toEqual({ ok: false, reason: 'not-json' });
  });

  it.each(['', 'abc', 'é', '☕', '😀 and \ud800 alone', 'x'.repeat(1000)])(
    'counts UTF-8 bytes of %j like Buffer.byteLength',
    (text) => {
      expect(utf8Length(text)).toBe(Buffer.byteLength(text));
    },
  );

  it('turns an entry back into a shareable loader result', () => {
    expect(toLoadedSegment('bench-item', { v: 1, ...entry })).toEqual({
      id: 'bench-item',
      key: entry.key,
      tags: entry.tags,
      private: false,
      outcome: { status: 'ok', data: entry.data, deferred: [] },
      deferred: new Map(),
    });
  });
});

describe('uncacheableReason', () => {
  it.each([
    ['a plain ok result', loaded(), null],
    ['an error', loaded({ outcome: { status: 'error', digest: 'd', message: 'm' } }), 'not-ok'],
    ['a not-found', loaded({ outcome: { status: 'not-found' } }), 'not-ok'],
    ['a private result', loaded({ private: true }), 'private'],
    [
      'deferred values',
      loaded({ outcome: { status: 'ok', data: {}, deferred: ['related'] } }),
      'deferred',
    ],
    ['a tag with a space', loaded({ tags: ['item 1'] }), 'bad-tags'],
    ['too many tags', loaded({ tags: Array.from({ length: 65 }, (_, i) => `t${i}`) }), 'bad-tags'],
  ])('%s → %s', (_name, segment, reason) => {
    expect(uncacheableReason(segment)).toBe(reason);
  });
});
