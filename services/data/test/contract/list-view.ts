/**
 * ListItems' view (AIP-157): BASIC lists carry id, title, price_cents and description only,
 * unspecified means FULL, page tokens work whatever the view, unknown views are refused.
 */
import { status } from '@grpc/grpc-js';
import { ItemView, ListItemsResponse, type Item } from '@strata/proto';
import { describe, expect, it } from 'vitest';
import type { ContractContext } from '../catalog-contract.js';
import { expectCallError } from '../harness/catalog-client.js';

const basicOf = ({ id, title, priceCents, description }: Item): Item => ({
  id,
  title,
  priceCents,
  categoryId: '',
  description,
  createTime: undefined,
  updateTime: undefined,
  version: 0,
});

/** Registers the list-view tests. */
export function registerListViewContract(get: () => ContractContext): void {
  describe('list view', () => {
    it('answers unspecified exactly like FULL', async () => {
      const query = { categoryId: 'cat-2', query: 'item', pageSize: 30 };
      const unspecified = await get().client.listItems(query);
      const full = await get().client.listItems({ ...query, view: ItemView.ITEM_VIEW_FULL });
      expect(unspecified.items[0]?.createTime).toBeInstanceOf(Date);
      expect(unspecified.items[0]?.version).toBeGreaterThan(0);
      expect(full).toEqual(unspecified);
    });

    it('returns the same items with only the basic fields set, in a smaller answer', async () => {
      const query = { query: 'obsidian', pageSize: 50 };
      const full = await get().client.listItems(query);
      const basic = await get().client.listItems({ ...query, view: ItemView.ITEM_VIEW_BASIC });
      expect(full.items.length).toBeGreaterThan(0);
      expect(basic.items).toEqual(full.items.map(basicOf));
      expect(basic.tags).toEqual(full.tags);
      expect(basic.nextPageToken === '').toBe(full.nextPageToken === '');
      const bytes = (page: ListItemsResponse) => ListItemsResponse.encode(page).finish().length;
      expect(bytes(basic)).toBeLessThan(bytes(full));
    });

    it('walks a category page by page in BASIC, the same ids as in FULL', async () => {
      const walk = async (view: ItemView) => {
        const items: Item[] = [];
        let pageToken = '';
        do {
          const page = await get().client.listItems({
            categoryId: 'cat-6',
            pageSize: 9,
            pageToken,
            view,
          });
          items.push(...page.items);
          pageToken = page.nextPageToken;
        } while (pageToken);
        return items;
      };
      const basic = await walk(ItemView.ITEM_VIEW_BASIC);
      const full = await walk(ItemView.ITEM_VIEW_FULL);
      expect(basic.length).toBeGreaterThanOrEqual(50);
      expect(basic).toEqual(full.map(basicOf));
    });

    it('accepts a page token from one view in the other (the view does not change the list)', async () => {
      const query = { categoryId: 'cat-8', pageSize: 4 };
      const first = await get().client.listItems({ ...query, view: ItemView.ITEM_VIEW_BASIC });
      const nextFull = await get().client.listItems({ ...query, pageToken: first.nextPageToken });
      const nextBasic = await get().client.listItems({
        ...query,
        pageToken: first.nextPageToken,
        view: ItemView.ITEM_VIEW_BASIC,
      });
      expect(nextFull.items.map((i) => i.id)).toEqual([88, 108, 128, 148]);
      expect(nextBasic.items).toEqual(nextFull.items.map(basicOf));
    });

    it('refuses an unknown view with INVALID_ARGUMENT on "view", with the other bad fields', async () => {
      const unknown = await expectCallError(get().client.listItems({ view: 7 as ItemView }));
      expect(unknown.code).toBe(status.INVALID_ARGUMENT);
      expect(unknown.message).toBe('Invalid request: check view');
      expect(unknown.details.reason).toBe('DATA_INVALID_ARGUMENT');
      expect(unknown.details.violations).toEqual([
        {
          field: 'view',
          reason: 'UNKNOWN_VALUE',
          description:
            'Unknown view 7; use ITEM_VIEW_BASIC (1) or ITEM_VIEW_FULL (2), or leave it unset for full items.',
        },
      ]);
      const several = await expectCallError(
        get().client.listItems({ pageSize: -1, view: -3 as ItemView }),
      );
      expect(several.details.violations.map((v) => v.field)).toEqual(['page_size', 'view']);
    });
  });
}
