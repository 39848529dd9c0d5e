/**
 * /api: JSON in and out, schema-validated, proper status codes, never a page.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRender, type RenderUnderTest } from './harness/start-render.js';

let stack: RenderUnderTest;
beforeAll(async () => {
  stack = await startRender();
});
afterAll(() => stack.stop());

const json = (method: 'POST' | 'PATCH', url: string, body: unknown) =>
  stack.app.inject({
    method,
    url,
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify(body),
  });

describe('catalogue API', () => {
  it('lists, pages and reads items', async () => {
    const list = await stack.app.inject({ url: '/api/items?pageSize=2&category=cat-1' });
    expect(list.statusCode).toBe(200);
    expect(list.json().items.map((i: { id: number }) => i.id)).toEqual([1, 21]);
    const next = await stack.app.inject({
      url: `/api/items?pageSize=2&category=cat-1&pageToken=${encodeURIComponent(list.json().nextPageToken)}`,
    });
    expect(next.json().items.map((i: { id: number }) => i.id)).toEqual([41, 61]);
    expect((await stack.app.inject({ url: '/api/items/3' })).json()).toMatchObject({
      id: 3,
      title: 'Item 3',
      priceCents: 23757,
    });
    expect((await stack.app.inject({ url: '/api/categories' })).json().categories).toHaveLength(20);
  });

  it('creates (201 + Location), updates with the version, and deletes (204)', async () => {
    const created = await json('POST', '/api/items', {
      title: 'Kettle',
      priceCents: 1999,
      categoryId: 'cat-4',
    });
    expect(created.statusCode).toBe(201);
    const item = created.json();
    expect(created.headers.location).toBe(`/api/items/${item.id}`);
    const updated = await json('PATCH', `/api/items/${item.id}`, {
      expectedVersion: 1,
      priceCents: 2499,
    });
    expect(updated.json()).toMatchObject({ priceCents: 2499, version: 2 });
    const conflict = await json('PATCH', `/api/items/${item.id}`, {
      expectedVersion: 1,
      priceCents: 1,
    });
    expect(conflict.statusCode).toBe(409);
    expect(conflict.json()).toMatchObject({ error: { code: 'VERSION_CONFLICT' } });
    expect(
      (await stack.app.inject({ method: 'DELETE', url: `/api/items/${item.id}` })).statusCode,
    ).toBe(428);
    expect(
      (await stack.app.inject({ method: 'DELETE', url: `/api/items/${item.id}?version=2` }))
        .statusCode,
    ).toBe(204);
    expect((await stack.app.inject({ url: `/api/items/${item.id}` })).statusCode).toBe(404);
  });

  it.each([
    ['a missing field', { title: 'x', categoryId: 'cat-1' }, 422, 'INVALID_ITEM'],
    [
      'an unknown field',
      { title: 'x', priceCents: 1, categoryId: 'cat-1', admin: true },
      422,
      'INVALID_ITEM',
    ],
    [
      'a value the data service refuses',
      { title: 'x', priceCents: -1, categoryId: 'cat-1' },
      422,
      'INVALID_ITEM',
    ],
    [
      'a duplicate title',
      { title: 'Item 1', priceCents: 1, categoryId: 'cat-1' },
      409,
      'TITLE_TAKEN',
    ],
  ])('refuses %s', async (_name, body, status, code) => {
    const response = await json('POST', '/api/items', body);
    expect(response.statusCode).toBe(status);
    expect(response.json()).toMatchObject({ error: { code } });
  });

  it('answers bad JSON with 400, other media types with 415, unknown API paths with JSON 404', async () => {
    const bad = await stack.app.inject({
      method: 'POST',
      url: '/api/items',
      headers: { 'content-type': 'application/json' },
      payload: '{',
    });
    expect(bad.statusCode).toBe(400);
    const text = await stack.app.inject({
      method: 'POST',
      url: '/api/items',
      headers: { 'content-type': 'text/plain' },
      payload: 'x',
    });
    expect(text.statusCode).toBe(415);
    const unknown = await stack.app.inject({ url: '/api/nothing' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.headers['content-type']).toMatch(/application\/json/);
    expect(unknown.body).not.toContain('<html');
  });
});
