import { segmentKey } from '@strata/web';
import { describe, expect, it } from 'vitest';
import {
  fullRequestKey,
  isShareable,
  mergeShapes,
  shapeFromKey,
  shapeFromMembers,
  shapeToMembers,
  storageKeyFor,
  unshareableReason,
} from './segment-shape.js';

describe('segment shapes', () => {
  it.each([
    ['bench-root', { params: [], search: [], private: false }],
    ['bench-item(p.id=42)', { params: ['id'], search: [], private: false }],
    [
      'item-list(s.category=cat-3&s.page=&s.q=)',
      { params: [], search: ['category', 'page', 'q'], private: false },
    ],
    ['x(p.a%20b=1&s.c%26d=2)', { params: ['a b'], search: ['c&d'], private: false }],
  ])('reads the names out of %s', (key, shape) => {
    expect(shapeFromKey(key, false)).toEqual(shape);
  });

  it.each(['x(q.a=1)', 'x(p.a=1', 'x(p.%E0%A4%A=1)'])('refuses the malformed key %s', (key) => {
    expect(shapeFromKey(key, false)).toBeNull();
  });

  it('derives the same key the runtime gives a loader that read those names', () => {
    const search = new URLSearchParams('q=tea&category=cat-3&unused=1');
    const params = { id: '7' };
    const shape = { params: ['id'], search: ['category', 'q'], private: false };
    expect(storageKeyFor('seg', shape, params, search)).toBe(
      segmentKey('seg', { params: { id: '7' }, search: { category: 'cat-3', q: 'tea' } }),
    );
    // A name the request lacks reads as empty, exactly as the loader saw it.
    expect(storageKeyFor('seg', { ...shape, search: ['page'] }, params, search)).toBe(
      'seg(p.id=7&s.page=)',
    );
  });

  it('merges shapes as a union and says when something was added', () => {
    const a = { params: ['id'], search: [], private: false };
    expect(mergeShapes(null, a)).toEqual({ shape: a, changed: true });
    expect(mergeShapes(a, a).changed).toBe(false);
    const merged = mergeShapes(a, { params: [], search: ['q'], private: true });
    expect(merged).toEqual({
      shape: { params: ['id'], search: ['q'], private: true },
      changed: true,
    });
  });

  it('round-trips through stored members, and an empty set means unknown', () => {
    const shape = { params: ['id'], search: ['q'], private: true };
    expect(shapeFromMembers(shapeToMembers(shape))).toEqual(shape);
    const empty = { params: [], search: [], private: false };
    expect(shapeFromMembers(shapeToMembers(empty))).toEqual(empty);
    expect(shapeFromMembers([])).toBeNull();
  });

  it('never shares private segments or ones reading too many names', () => {
    expect(isShareable({ params: [], search: [], private: true })).toBe(false);
    const many = Array.from({ length: 33 }, (_, i) => `n${i}`);
    expect(isShareable({ params: [], search: many, private: false })).toBe(false);
    expect(isShareable({ params: [], search: many.slice(1), private: false })).toBe(true);
  });

  it('says why a shape skips the cache (private wins over too many names)', () => {
    const many = Array.from({ length: 33 }, (_, i) => `n${i}`);
    expect(unshareableReason({ params: ['id'], search: [], private: false })).toBeNull();
    expect(unshareableReason({ params: [], search: [], private: true })).toBe('private');
    expect(unshareableReason({ params: many, search: [], private: true })).toBe('private');
    expect(unshareableReason({ params: many.slice(1), search: ['q'], private: false })).toBe(
      'too-many-names',
    );
  });

  it('the full request key tells repeated search values apart', () => {
    const one = fullRequestKey('s', {}, new URLSearchParams('a=1&a=2'));
    expect(one).not.toBe(fullRequestKey('s', {}, new URLSearchParams('a=12')));
    expect(one).toBe(fullRequestKey('s', {}, new URLSearchParams('a=1&a=2')));
  });
});
