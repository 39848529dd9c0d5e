import { describe, expect, it } from 'vitest';
import { resolveItemView } from './item-view.js';

describe('resolveItemView', () => {
  it('reads unspecified (0) and FULL (2) as full items, BASIC (1) as basic', () => {
    expect(resolveItemView(0)).toEqual({ fields: 'full', violations: [] });
    expect(resolveItemView(2)).toEqual({ fields: 'full', violations: [] });
    expect(resolveItemView(1)).toEqual({ fields: 'basic', violations: [] });
  });

  it('refuses any other number with a violation on "view" naming the valid values', () => {
    for (const view of [3, -1, 99]) {
      const { violations } = resolveItemView(view);
      expect(violations).toEqual([
        expect.objectContaining({ field: 'view', reason: 'UNKNOWN_VALUE' }),
      ]);
      expect(violations[0]?.description).toContain(`Unknown view ${view}`);
      expect(violations[0]?.description).toContain('ITEM_VIEW_BASIC');
    }
  });
});
