/**
 * Read side of the contract: seeded data, pagination, search, page-token tampering, errors.
 */
import { status } from '@grpc/grpc-js';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { ContractContext } from '../catalog-contract.js';
import { expectCallError } from '../harness/catalog-client.js';

interface AnchorItem {
  id: number;
  title: string;
  priceCents: number;
  category: string;
  description: string;
}

// The benchmark's own data module: the seed must match it exactly.
const anchorData = fileURLToPath(
  new URL('../../../../bench/anchors/shared/data.mjs', import.meta.url),
);
const loadAnchor = async (): Promise<{ getItems(limit: number): Promise<AnchorItem[]> }> =>
  import(anchorData);

/** Registers the read tests. */
export function registerReadContract(get: () => ContractContext): void {
  describe('reads', () => {
    it('lists the 20 seeded categories in natural order, tagged "categories"', async () => {
      const { categories, tags } = await get().client.listCategories({});
      expect(categories.map((c) => c.id)).toEqual(Array.from({ length: 20 }, (_, n) => `cat-${n}`));
      expect(tags).toEqual(['categories']);
    });

    it('serves exactly the benchmark data (bench/anchors/shared/data.mjs)', async () => {
      const anchor = await loadAnchor();
      const expected = await anchor.getItems(1000);
      const seen = [];
      let pageToken = '';
      do {
        const page = await get().client.listItems({ pageSize: 100, pageToken });
        seen.push(...page.items);
        pageToken = page.nextPageToken;
      } while (pageToken);
      const seeded = seen.filter((item) => item.id <= 1000);
      expect(seeded).toHaveLength(1000);
      expect(
        seeded.map(({ id, title, priceCents, categoryId, description }) => ({
          id,
          title,
          priceCents,
          category: categoryId,
          description,
        })),
      ).toEqual(expected.map((item) => ({ ...item })));
    });

    it('gets one item with its version, times and tag', async () => {
      const { item, tags } = await get().client.getItem({ id: 7 });
      expect(item).toMatchObject({
        id: 7,
        title: 'Item 7',
        priceCents: 55433,
        categoryId: 'cat-7',
        version: 1,
      });
      expect(item?.createTime?.toISOString()).toBe('2026-01-01T00:00:00.000Z');
      expect(tags).toEqual(['item:7']);
    });

    it('answers NOT_FOUND for a missing item and INVALID_ARGUMENT for id 0', async () => {
      const missing = await expectCallError(get().client.getItem({ id: 999_999 }));
      expect(missing.code).toBe(status.NOT_FOUND);
      expect(missing.message).toBe('Item 999999 does not exist.');
      expect(missing.details.reason).toBe('DATA_ITEM_NOT_FOUND');
      const invalid = await expectCallError(get().client.getItem({ id: 0 }));
      expect(invalid.code).toBe(status.INVALID_ARGUMENT);
      expect(invalid.details.violations.map((v) => v.field)).toEqual(['id']);
    });

    it('defaults to 20 per page and caps page size at 100', async () => {
      expect((await get().client.listItems({})).items).toHaveLength(20);
      const capped = await get().client.listItems({ pageSize: 5000 });
      expect(capped.items.map((i) => i.id)).toEqual(Array.from({ length: 100 }, (_, n) => n + 1));
      expect(capped.tags).toEqual(['items']);
    });

    it('walks a category page by page without gaps or repeats', async () => {
      const ids: number[] = [];
      let pageToken = '';
      let pages = 0;
      do {
        const page = await get().client.listItems({ categoryId: 'cat-3', pageSize: 7, pageToken });
        expect(page.tags).toEqual(['category:cat-3']);
        ids.push(...page.items.map((i) => i.id));
        pageToken = page.nextPageToken;
        pages += 1;
      } while (pageToken);
      const expected = Array.from({ length: 50 }, (_, n) => n * 20 + 3);
      expect(ids.filter((id) => id <= 1000)).toEqual(expected);
      expect(pages).toBe(Math.ceil(ids.length / 7));
    });

    it('searches title and description case-insensitively, with wildcards taken literally', async () => {
      const byTitle = await get().client.listItems({ query: 'ITEM 99', pageSize: 100 });
      expect(byTitle.items.map((i) => i.id).filter((id) => id <= 1000)).toEqual([
        99, 990, 991, 992, 993, 994, 995, 996, 997, 998, 999,
      ]);
      const words = await get().client.listItems({
        query: 'obsidian',
        categoryId: 'cat-1',
        pageSize: 100,
      });
      expect(words.items.length).toBeGreaterThan(0);
      for (const item of words.items) {
        expect(item.categoryId).toBe('cat-1');
        expect(`${item.title} ${item.description}`.toLowerCase()).toContain('obsidian');
      }
      expect(words.tags).toEqual(['items']);
      expect((await get().client.listItems({ query: '%' })).items).toEqual([]);
      expect((await get().client.listItems({ query: '_' })).items).toEqual([]);
    });

    it('refuses a tampered page token, and a token replayed with another query', async () => {
      const first = await get().client.listItems({ categoryId: 'cat-4', pageSize: 5 });
      const token = first.nextPageToken;
      const [body, signature] = token.split('.');
      const forgedBody = Buffer.from(JSON.stringify({ v: 1, a: 900, q: 'x' })).toString(
        'base64url',
      );
      for (const bad of [
        `${forgedBody}.${signature}`,
        `${body}.AAAA`,
        'garbage',
        `${token}.extra`,
      ]) {
        const error = await expectCallError(
          get().client.listItems({ categoryId: 'cat-4', pageToken: bad }),
        );
        expect(error.code).toBe(status.INVALID_ARGUMENT);
        expect(error.details.violations.map((v) => v.field)).toEqual(['page_token']);
      }
      const replay = await expectCallError(
        get().client.listItems({ categoryId: 'cat-5', pageToken: token }),
      );
      expect(replay.details.violations[0]?.description).toMatch(/different query/);
    });

    it('reports every invalid filter at once', async () => {
      const error = await expectCallError(
        get().client.listItems({ categoryId: 'Not A Slug!', query: 'x'.repeat(201), pageSize: -1 }),
      );
      expect(error.code).toBe(status.INVALID_ARGUMENT);
      expect(error.details.violations.map((v) => v.field).sort()).toEqual([
        'category_id',
        'page_size',
        'query',
      ]);
    });

    it('refuses a query with a NUL character as INVALID_ARGUMENT (the database cannot store one)', async () => {
      const error = await expectCallError(get().client.listItems({ query: 'lamp\u0000' }));
      expect(error.code).toBe(status.INVALID_ARGUMENT);
      expect(error.details.violations).toEqual([
        {
          field: 'query',
          reason: 'INVALID_CHARACTERS',
          description: 'Query must not contain NUL characters.',
        },
      ]);
    });
  });
}
