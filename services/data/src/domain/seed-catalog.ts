/**
 * The benchmark catalogue: 1,000 items in 20 categories, the same data the benchmark's anchor
 * servers serve, deterministic (no clock, no randomness), so every implementation serves
 * identical data.
 */

const WORDS = [
  'amber',
  'basalt',
  'cedar',
  'dune',
  'ember',
  'fjord',
  'garnet',
  'harbor',
  'indigo',
  'juniper',
  'kelp',
  'lagoon',
  'meadow',
  'nectar',
  'obsidian',
  'prairie',
] as const;

const DESCRIPTION_LENGTH = 160;
const ITEM_COUNT = 1000;
const CATEGORY_COUNT = 20;

/** Seeded rows carry this creation time so the data stays byte-identical across databases. */
export const SEED_TIME = new Date('2026-01-01T00:00:00.000Z');

/** One seeded item, in the shape the store inserts. */
export interface SeedItem {
  readonly id: number;
  readonly title: string;
  readonly priceCents: number;
  readonly categoryId: string;
  readonly description: string;
}

/** One seeded category. */
export interface SeedCategory {
  readonly id: string;
  readonly name: string;
}

function describeItem(id: number): string {
  let text = `Item ${id} is`;
  for (let i = 0; text.length < DESCRIPTION_LENGTH; i++) {
    text += ` ${WORDS[(id * 31 + i * 7) % WORDS.length]}`;
  }
  return text.slice(0, DESCRIPTION_LENGTH);
}

/** The 20 categories `cat-0` … `cat-19` (named like their ids, as the benchmark pages print them). */
export function seedCategories(): SeedCategory[] {
  return Array.from({ length: CATEGORY_COUNT }, (_, n) => ({ id: `cat-${n}`, name: `cat-${n}` }));
}

/** The 1,000 benchmark items, ids 1 … 1000. */
export function seedItems(): SeedItem[] {
  return Array.from({ length: ITEM_COUNT }, (_, index) => {
    const id = index + 1;
    return {
      id,
      title: `Item ${id}`,
      priceCents: (id * 7919) % 100000,
      categoryId: `cat-${id % CATEGORY_COUNT}`,
      description: describeItem(id),
    };
  });
}
