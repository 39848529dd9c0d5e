import { describe, expect, it } from 'vitest';
import { itemListTags, itemWriteTags } from './cache-tags.js';

describe('cache tags', () => {
  it('names the item, every list and each category a write touched, once each', () => {
    expect(itemWriteTags(42, ['cat-2', 'cat-2'])).toEqual(['item:42', 'items', 'category:cat-2']);
    expect(itemWriteTags(42, ['cat-2', 'cat-3'])).toEqual([
      'item:42',
      'items',
      'category:cat-2',
      'category:cat-3',
    ]);
  });

  it('ties a pure category listing to its category, anything else to every item', () => {
    expect(itemListTags({ categoryId: 'cat-1', query: '' })).toEqual(['category:cat-1']);
    expect(itemListTags({ categoryId: 'cat-1', query: 'x' })).toEqual(['items']);
    expect(itemListTags({ categoryId: '', query: '' })).toEqual(['items']);
  });
});
