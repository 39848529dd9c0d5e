/**
 * The benchmark pages of bench/anchors/README.md: visible markup identical to the anchors'
 * Fastify+React page, data from the data service.
 */
import { ItemView } from '@strata/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anchorMarkup, visibleMarkup } from './harness/anchor-page.js';
import { startRender, type RenderUnderTest } from './harness/start-render.js';

let stack: RenderUnderTest;
beforeAll(async () => {
  stack = await startRender();
});
afterAll(() => stack.stop());

describe('benchmark pages', () => {
  it('/bench/items has exactly the anchor’s visible markup', async () => {
    const response = await stack.app.inject({ url: '/bench/items' });
    expect(response.statusCode).toBe(200);
    const visible = visibleMarkup(response.body);
    expect(visible).toBe(await anchorMarkup('/bench/items'));
    expect(visible.length).toBe(26_216);
  });

  it('/bench/items and the category pages ask the data service for basic items only', async () => {
    const before = stack.listItemsRequests.length;
    await stack.app.inject({ url: '/bench/items' });
    const category = await stack.app.inject({ url: '/bench/category/cat-3' });
    expect(category.statusCode).toBe(200);
    const listed = [...category.body.matchAll(/href="\/bench\/items\/(\d+)"/g)].map((m) =>
      Number(m[1]),
    );
    expect(listed).toEqual(Array.from({ length: 50 }, (_, n) => n * 20 + 3));
    expect(category.body).toContain('<a href="/bench/items/23">Item 23</a>');
    expect(category.body).toMatch(/<span class="price">\$\d+\.\d\d<\/span>/);
    const sent = stack.listItemsRequests.slice(before);
    expect(sent.map((r) => [r.categoryId, r.pageSize, r.view])).toEqual([
      ['', 100, ItemView.ITEM_VIEW_BASIC],
      ['cat-3', 100, ItemView.ITEM_VIEW_BASIC],
    ]);
  });

  it('/bench/items/7 has exactly the anchor’s visible markup', async () => {
    const response = await stack.app.inject({ url: '/bench/items/7' });
    expect(visibleMarkup(response.body)).toBe(await anchorMarkup('/bench/items/7'));
  });

  it.each(['/bench/items/1001', '/bench/items/07', '/bench/items/abc'])(
    'answers 404 for %s',
    async (url) => {
      expect((await stack.app.inject({ url })).statusCode).toBe(404);
    },
  );

  it('sends only the page segment when navigating from an item to the list', async () => {
    const { payloadHash } = await import('@strata/web');
    const tree = '1;bench-root/bench-section/bench-item(p.id=1)';
    const response = await stack.app.inject({
      url: `/bench/items?_p=${payloadHash({ tree, prefetch: undefined })}`,
      headers: { 'strata-payload': '1', 'strata-tree': tree },
    });
    const records = response.body
      .trim()
      .split('\n')
      .map(
        (line) => JSON.parse(line) as { type: string; id?: string; data?: { items: unknown[] } },
      );
    expect(records.map((r) => r.type)).toEqual(['route', 'segment', 'end']);
    expect(records[1]?.id).toBe('bench-items');
    expect(records[1]?.data?.items).toHaveLength(100);
    expect(response.body).toContain('Item 100');
  });
});
