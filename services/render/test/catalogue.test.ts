/**
 * The example catalogue end to end in-process: pages, forms without JavaScript, validation,
 * conflicts, revalidation by the data service's tags, the private account area.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRender, type RenderUnderTest } from './harness/start-render.js';

let stack: RenderUnderTest;
beforeAll(async () => {
  stack = await startRender();
});
afterAll(() => stack.stop());

const ORIGIN = 'http://shop.test';

async function actionIdOn(
  url: string,
  name: 'update' | 'create' | 'delete',
): Promise<{ id: string; body: string }> {
  const body = (await stack.app.inject({ url })).body;
  const forms = [...body.matchAll(/name="\$action" value="([0-9a-f]{32})"/g)].map(
    (m) => m[1] ?? '',
  );
  const id = name === 'delete' ? forms[1] : forms[0];
  return { id: id ?? '', body };
}

function post(url: string, fields: Record<string, string>) {
  return stack.app.inject({
    method: 'POST',
    url,
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: ORIGIN },
    payload: new URLSearchParams(fields).toString(),
  });
}

describe('catalogue pages', () => {
  it('lists categories on the home page', async () => {
    const response = await stack.app.inject({ url: '/' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('<a href="/items?category=cat-19">cat-19</a>');
  });

  it('filters, searches and pages the item list', async () => {
    const first = await stack.app.inject({ url: '/items?category=cat-3' });
    expect(first.body).toContain('<a href="/items/3">Item 3</a>');
    expect(first.body).not.toContain('<a href="/items/4">');
    const next = /rel="next" href="([^"]+)"/.exec(first.body)?.[1]?.replaceAll('&amp;', '&');
    expect(next).toMatch(/^\/items\?category=cat-3&page=/);
    const second = await stack.app.inject({ url: next ?? '' });
    expect(second.body).toContain('<a href="/items/403">Item 403</a>');
    const search = await stack.app.inject({ url: '/items?q=Item%20999' });
    expect(search.body).toContain('<a href="/items/999">Item 999</a>');
    expect(search.body).not.toContain('<a href="/items/998">');
  });

  it('answers 404 with the catalogue’s not-found view for a missing item or URL', async () => {
    for (const url of ['/items/999999', '/no/such/page']) {
      const response = await stack.app.inject({ url });
      expect(response.statusCode).toBe(404);
      expect(response.body).toContain('<h1>Not found</h1>');
    }
  });

  it('streams the related items of an item page after the page itself', async () => {
    const response = await stack.app.inject({ url: '/items/5' });
    expect(response.body.indexOf('<h1>Item 5</h1>')).toBeLessThan(
      response.body.indexOf('class="related"'),
    );
  });
});

describe('forms without JavaScript', () => {
  it('create an item and land on it (303), and revalidate its tags', async () => {
    const { id } = await actionIdOn('/items/new', 'create');
    const response = await post('/items/new', {
      $action: id,
      title: 'Teapot',
      price: '24.50',
      categoryId: 'cat-2',
      description: 'Blue.',
    });
    expect(response.statusCode).toBe(303);
    const location = response.headers.location as string;
    expect(location).toMatch(/^\/items\/\d+$/);
    const page = await stack.app.inject({ url: location });
    expect(page.body).toContain('<h1>Teapot</h1>');
    expect(page.body).toContain('$24.50');
    expect(stack.revalidated.at(-1)).toEqual([
      `item:${location.split('/').pop()}`,
      'items',
      'category:cat-2',
    ]);
  });

  it('show every validation message next to its field, keeping what was typed (422)', async () => {
    const { id } = await actionIdOn('/items/new', 'create');
    const response = await post('/items/new', {
      $action: id,
      title: '',
      price: 'cheap',
      categoryId: 'cat-2',
      description: '',
    });
    expect(response.statusCode).toBe(422);
    expect(response.body).toContain('<span class="field-error">Title is required</span>');
    expect(response.body).toContain('<span class="field-error">Enter a price like 12.99</span>');
    expect(response.body).toContain('value="cheap"');
  });

  it('show the data service’s refusal of a duplicate title on the title field', async () => {
    const { id } = await actionIdOn('/items/new', 'create');
    const response = await post('/items/new', {
      $action: id,
      title: 'Item 2',
      price: '1',
      categoryId: 'cat-2',
      description: '',
    });
    expect(response.statusCode).toBe(422);
    expect(response.body).toContain('This category already has an item with this title.');
  });

  it('refuse an edit made on a stale version and keep the item unchanged', async () => {
    const { id } = await actionIdOn('/items/8', 'update');
    const fields = {
      $action: id,
      id: '8',
      title: 'Item 8 renamed',
      price: '1.00',
      categoryId: 'cat-8',
      description: '',
    };
    expect((await post('/items/8', { ...fields, version: '1' })).statusCode).toBe(303);
    const stale = await post('/items/8', { ...fields, title: 'Item 8 again', version: '1' });
    expect(stale.statusCode).toBe(422);
    expect(stale.body).toContain('Someone changed this item since you opened it.');
    expect((await stack.app.inject({ url: '/items/8' })).body).toContain('<h1>Item 8 renamed</h1>');
  });

  it('delete an item and go back to the list', async () => {
    const { id } = await actionIdOn('/items/9', 'delete');
    const response = await post('/items/9', { $action: id, id: '9', version: '1' });
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe('/items');
    expect((await stack.app.inject({ url: '/items/9' })).statusCode).toBe(404);
  });

  it('refuse a post from another site', async () => {
    const { id } = await actionIdOn('/items/new', 'create');
    const response = await stack.app.inject({
      method: 'POST',
      url: '/items/new',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://evil.test' },
      payload: new URLSearchParams({
        $action: id,
        title: 'Evil',
        price: '1',
        categoryId: 'cat-1',
      }).toString(),
    });
    expect(response.statusCode).toBe(403);
  });
});

describe('account area', () => {
  it('renders under its own root layout and marks its cookie-reading data private', async () => {
    const response = await stack.app.inject({
      url: '/account',
      headers: { cookie: 'strata_user=ann' },
    });
    expect(response.body).toContain('<body class="account">');
    expect(response.body).toContain('Signed in as <!-- -->ann');
    expect(response.body).toContain('"private":true');
  });
});
