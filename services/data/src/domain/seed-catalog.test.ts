import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { seedCategories, seedItems } from './seed-catalog.js';

const anchorData = fileURLToPath(
  new URL('../../../../bench/anchors/shared/data.mjs', import.meta.url),
);

describe('seed catalogue', () => {
  it('is exactly the benchmark data (bench/anchors/shared/data.mjs)', async () => {
    const anchor = (await import(anchorData)) as {
      getItems(
        limit: number,
      ): Promise<
        { id: number; title: string; priceCents: number; category: string; description: string }[]
      >;
      CATEGORIES: string[];
    };
    const expected = await anchor.getItems(1000);
    expect(
      seedItems().map(({ categoryId, ...rest }) => ({ ...rest, category: categoryId })),
    ).toEqual(expected.map((item) => ({ ...item })));
    expect(seedCategories().map((c) => c.id)).toEqual(anchor.CATEGORIES);
  });

  it('prints prices and descriptions as the benchmark data does', () => {
    const first = seedItems()[0];
    expect(first?.priceCents).toBe(7919);
    expect(first?.description).toHaveLength(160);
    expect(first?.description.startsWith('Item 1 is ')).toBe(true);
  });
});
