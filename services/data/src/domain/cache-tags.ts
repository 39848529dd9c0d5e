/**
 * Cache tags name the data an answer depends on. Reads report the tags they used; writes report
 * the tags they touched; a cache drops every entry carrying a touched tag.
 */

/** Every list of items depends on this tag; every item write touches it. */
export const ITEMS_TAG = 'items';
/** The category list. */
export const CATEGORIES_TAG = 'categories';

/** The tag of one item. */
export function itemTag(id: number): string {
  return `item:${id}`;
}

/** The tag of one category's items. */
export function categoryTag(categoryId: string): string {
  return `category:${categoryId}`;
}

/** Tags a write to one item touches: the item, every list, and each category it was or is in. */
export function itemWriteTags(id: number, categoryIds: readonly string[]): string[] {
  const categories = [...new Set(categoryIds)].map(categoryTag);
  return [itemTag(id), ITEMS_TAG, ...categories];
}

/** Tags a list read depends on: a pure category filter depends on that category only. */
export function itemListTags(filter: { categoryId: string; query: string }): string[] {
  if (filter.categoryId && !filter.query) return [categoryTag(filter.categoryId)];
  return [ITEMS_TAG];
}
