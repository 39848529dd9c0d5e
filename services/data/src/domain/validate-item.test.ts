import { describe, expect, it } from 'vitest';
import { resolveUpdateMask, validateItemFields, validateListRequest } from './validate-item.js';

const VALID = { title: 'Lamp', priceCents: 1299, categoryId: 'cat-2', description: '' };

describe('validateItemFields', () => {
  it('accepts a valid item', () => {
    expect(validateItemFields(VALID)).toEqual([]);
  });

  it.each([
    [{ title: '   ' }, 'title', 'REQUIRED'],
    [{ title: 'x'.repeat(201) }, 'title', 'TOO_LONG'],
    [{ title: 'bad\u0007bell' }, 'title', 'INVALID_CHARACTERS'],
    [{ priceCents: -1 }, 'price_cents', 'OUT_OF_RANGE'],
    [{ priceCents: 1.5 }, 'price_cents', 'OUT_OF_RANGE'],
    [{ priceCents: 100_000_001 }, 'price_cents', 'OUT_OF_RANGE'],
    [{ categoryId: '' }, 'category_id', 'REQUIRED'],
    [{ categoryId: 'Cat 2' }, 'category_id', 'INVALID_FORMAT'],
    [{ description: 'x'.repeat(5001) }, 'description', 'TOO_LONG'],
  ])('flags %j as %s %s', (patch, field, reason) => {
    expect(validateItemFields({ ...VALID, ...patch })).toEqual([
      expect.objectContaining({ field, reason }),
    ]);
  });

  it('accepts the boundaries', () => {
    expect(
      validateItemFields({
        ...VALID,
        title: 'x'.repeat(200),
        priceCents: 100_000_000,
        description: 'x'.repeat(5000),
      }),
    ).toEqual([]);
    expect(validateItemFields({ ...VALID, priceCents: 0 })).toEqual([]);
  });

  it('checks only the fields named', () => {
    expect(validateItemFields({ ...VALID, title: '' }, ['price_cents'])).toEqual([]);
  });
});

describe('resolveUpdateMask', () => {
  it('treats an empty mask as every mutable field', () => {
    expect(resolveUpdateMask([]).fields).toEqual([
      'title',
      'price_cents',
      'category_id',
      'description',
    ]);
  });

  it('deduplicates paths', () => {
    expect(resolveUpdateMask(['title', 'title']).fields).toEqual(['title']);
  });

  it('names unknown paths', () => {
    const { violations } = resolveUpdateMask(['title', 'version', 'id']);
    expect(violations[0]?.description).toMatch(/Cannot update version, id/);
  });
});

describe('validateListRequest', () => {
  it.each([
    [0, 20],
    [1, 1],
    [100, 100],
    [101, 100],
  ])('page size %d becomes %d', (pageSize, expected) => {
    expect(validateListRequest({ categoryId: '', query: '', pageSize, view: 0 }).pageSize).toBe(
      expected,
    );
  });

  it('lists basic fields for view 1 and reports an unknown view with the other violations', () => {
    expect(validateListRequest({ categoryId: '', query: '', pageSize: 0, view: 1 })).toEqual({
      pageSize: 20,
      fields: 'basic',
      violations: [],
    });
    const { violations } = validateListRequest({
      categoryId: 'Not A Slug!',
      query: '',
      pageSize: 0,
      view: 7,
    });
    expect(violations.map((v) => v.field)).toEqual(['category_id', 'view']);
  });
});
