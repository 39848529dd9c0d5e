/**
 * Write side of the contract: validation, conflicts, optimistic concurrency, tags, atomicity.
 */
import { status } from '@grpc/grpc-js';
import { describe, expect, it } from 'vitest';
import type { ContractContext } from '../catalog-contract.js';
import { expectCallError } from '../harness/catalog-client.js';

let counter = 0;
/** A title no other test uses. */
function uniqueTitle(prefix: string): string {
  counter += 1;
  return `${prefix} ${process.pid}-${counter}`;
}

/** Registers the write tests. */
export function registerWriteContract(get: () => ContractContext): void {
  const create = (title: string, categoryId = 'cat-2') =>
    get().client.createItem({ title, priceCents: 1299, categoryId, description: 'A test item.' });

  describe('writes', () => {
    it('creates an item at version 1 and reports the tags it touched', async () => {
      const title = uniqueTitle('Lamp');
      const created = await create(`  ${title}  `);
      expect(created.item).toMatchObject({
        title,
        priceCents: 1299,
        categoryId: 'cat-2',
        version: 1,
      });
      expect(created.item?.id).toBeGreaterThan(1000);
      expect(created.tags).toEqual([`item:${created.item?.id}`, 'items', 'category:cat-2']);
      expect(created.changeSequence).toBeGreaterThan(0);
      const read = await get().client.getItem({ id: created.item?.id ?? 0 });
      expect(read.item).toEqual(created.item);
    });

    it('lists every invalid field of a create at once', async () => {
      const error = await expectCallError(
        get().client.createItem({
          title: ' ',
          priceCents: -5,
          categoryId: 'BAD ID',
          description: 'x'.repeat(5001),
        }),
      );
      expect(error.code).toBe(status.INVALID_ARGUMENT);
      expect(error.details.reason).toBe('DATA_INVALID_ARGUMENT');
      expect(error.details.violations).toEqual([
        { field: 'title', reason: 'REQUIRED', description: 'Title is required.' },
        {
          field: 'price_cents',
          reason: 'OUT_OF_RANGE',
          description: 'Price must be 0 to 100000000 cents.',
        },
        {
          field: 'category_id',
          reason: 'INVALID_FORMAT',
          description: 'Category id is not well-formed.',
        },
        {
          field: 'description',
          reason: 'TOO_LONG',
          description: 'Description must be at most 5000 characters.',
        },
      ]);
    });

    it('refuses a description with a NUL character as INVALID_ARGUMENT, storing nothing', async () => {
      const title = uniqueTitle('Nul');
      const error = await expectCallError(
        get().client.createItem({
          title,
          priceCents: 100,
          categoryId: 'cat-1',
          description: 'before\u0000after',
        }),
      );
      expect(error.code).toBe(status.INVALID_ARGUMENT);
      expect(error.details.violations).toEqual([
        {
          field: 'description',
          reason: 'INVALID_CHARACTERS',
          description: 'Description must not contain NUL characters.',
        },
      ]);
      const found = await get().client.listItems({ query: title });
      expect(found.items).toEqual([]);
    });

    it('refuses an unknown category as INVALID_ARGUMENT on category_id', async () => {
      const error = await expectCallError(create(uniqueTitle('Orphan'), 'cat-999'));
      expect(error.code).toBe(status.INVALID_ARGUMENT);
      expect(error.details.violations).toEqual([
        {
          field: 'category_id',
          reason: 'NOT_FOUND',
          description: 'Category "cat-999" does not exist.',
        },
      ]);
    });

    it('answers ALREADY_EXISTS for a duplicate title in one category, case-insensitively', async () => {
      const title = uniqueTitle('Chair');
      await create(title, 'cat-3');
      const error = await expectCallError(create(title.toUpperCase(), 'cat-3'));
      expect(error.code).toBe(status.ALREADY_EXISTS);
      expect(error.details.violations.map((v) => v.field)).toEqual(['title']);
      await expect(create(title, 'cat-4')).resolves.toMatchObject({
        item: { categoryId: 'cat-4' },
      });
    });

    it('updates only the masked fields and bumps the version', async () => {
      const { item } = await create(uniqueTitle('Desk'));
      const updated = await get().client.updateItem({
        item: { id: item?.id, priceCents: 4500, title: 'ignored because not in the mask' },
        updateMask: ['price_cents'],
        expectedVersion: 1,
      });
      expect(updated.item).toMatchObject({
        id: item?.id,
        title: item?.title,
        priceCents: 4500,
        version: 2,
      });
      expect(updated.item?.updateTime?.getTime()).toBeGreaterThan(
        item?.updateTime?.getTime() ?? Infinity,
      );
      expect(updated.tags).toEqual([`item:${item?.id}`, 'items', 'category:cat-2']);
    });

    it('reports both categories when an item moves', async () => {
      const { item } = await create(uniqueTitle('Rug'), 'cat-5');
      const moved = await get().client.updateItem({
        item: { id: item?.id, categoryId: 'cat-6' },
        updateMask: ['category_id'],
        expectedVersion: 1,
      });
      expect(moved.tags).toEqual([`item:${item?.id}`, 'items', 'category:cat-5', 'category:cat-6']);
    });

    it('answers ABORTED on a stale version and changes nothing', async () => {
      const { item } = await create(uniqueTitle('Shelf'));
      await get().client.updateItem({
        item: { id: item?.id, priceCents: 1 },
        updateMask: ['price_cents'],
        expectedVersion: 1,
      });
      const error = await expectCallError(
        get().client.updateItem({
          item: { id: item?.id, priceCents: 2 },
          updateMask: ['price_cents'],
          expectedVersion: 1,
        }),
      );
      expect(error.code).toBe(status.ABORTED);
      expect(error.details.reason).toBe('DATA_VERSION_CONFLICT');
      expect(error.message).toMatch(/version 2, not 1/);
      expect((await get().client.getItem({ id: item?.id ?? 0 })).item).toMatchObject({
        priceCents: 1,
        version: 2,
      });
    });

    it('lets exactly one of ten concurrent updates of one version win', async () => {
      const { item } = await create(uniqueTitle('Race'));
      const attempts = Array.from({ length: 10 }, (_, n) =>
        get()
          .client.updateItem({
            item: { id: item?.id, priceCents: n },
            updateMask: ['price_cents'],
            expectedVersion: 1,
          })
          .then(
            () => 'ok',
            (error: { code: number }) => error.code,
          ),
      );
      const outcomes = await Promise.all(attempts);
      expect(outcomes.filter((o) => o === 'ok')).toHaveLength(1);
      expect(outcomes.filter((o) => o === status.ABORTED)).toHaveLength(9);
      expect((await get().client.getItem({ id: item?.id ?? 0 })).item?.version).toBe(2);
    });

    it('refuses unknown mask paths, a missing version and a missing id', async () => {
      const error = await expectCallError(
        get().client.updateItem({
          item: { id: 0 },
          updateMask: ['version', 'title'],
          expectedVersion: 0,
        }),
      );
      expect(error.code).toBe(status.INVALID_ARGUMENT);
      expect(error.details.violations.map((v) => v.field)).toEqual([
        'item.id',
        'expected_version',
        'update_mask',
      ]);
    });

    it('answers NOT_FOUND when updating or deleting a missing item', async () => {
      const update = await expectCallError(
        get().client.updateItem({
          item: { id: 888_888, priceCents: 1 },
          updateMask: ['price_cents'],
          expectedVersion: 1,
        }),
      );
      expect(update.code).toBe(status.NOT_FOUND);
      const remove = await expectCallError(
        get().client.deleteItem({ id: 888_888, expectedVersion: 1 }),
      );
      expect(remove.code).toBe(status.NOT_FOUND);
    });

    it('deletes only at the current version', async () => {
      const { item } = await create(uniqueTitle('Vase'), 'cat-7');
      const id = item?.id ?? 0;
      expect(
        (await expectCallError(get().client.deleteItem({ id, expectedVersion: 9 }))).code,
      ).toBe(status.ABORTED);
      expect((await get().client.getItem({ id })).item?.id).toBe(id);
      const deleted = await get().client.deleteItem({ id, expectedVersion: 1 });
      expect(deleted.tags).toEqual([`item:${id}`, 'items', 'category:cat-7']);
      expect((await expectCallError(get().client.getItem({ id }))).code).toBe(status.NOT_FOUND);
    });

    it('leaves nothing half-written when a write fails inside its transaction', async () => {
      const taken = uniqueTitle('Taken');
      await create(taken, 'cat-8');
      const { item } = await create(uniqueTitle('Mover'), 'cat-9');
      // Moving into cat-8 with a clashing title fails after the row was locked and checked.
      const error = await expectCallError(
        get().client.updateItem({
          item: { id: item?.id, title: taken, categoryId: 'cat-8', priceCents: 1 },
          updateMask: ['title', 'category_id', 'price_cents'],
          expectedVersion: 1,
        }),
      );
      expect(error.code).toBe(status.ALREADY_EXISTS);
      expect((await get().client.getItem({ id: item?.id ?? 0 })).item).toEqual(item);
    });
  });
}
