/**
 * The benchmark pages (/bench/*) are the bench app's, never the catalogue's; the catalogue's
 * failure drill pages (/errors/*) are off unless configuration turns them on
 * (RENDER_ERROR_DRILLS). Where a page is not served its URL is the catalogue's not-found page,
 * for documents and client navigations alike.
 */
import { createCatalogApp } from '@strata/app-catalog';
import { payloadHash } from '@strata/web';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRender, type RenderUnderTest } from './harness/start-render.js';

const DRILLS = ['/errors/server', '/errors/segment', '/errors/client', '/errors/render'];
const BENCH = ['/bench/items', '/bench/items/7', '/bench/category/cat-3', '/bench/about'];

describe('the catalogue with the defaults', () => {
  let stack: RenderUnderTest;
  // Empty values are unset: the service's own defaults apply.
  beforeAll(async () => {
    stack = await startRender({ RENDER_ERROR_DRILLS: '' }, { app: createCatalogApp });
  });
  afterAll(() => stack.stop());

  it.each([...BENCH, ...DRILLS])('%s is not found', async (url) => {
    const response = await stack.app.inject({ url });
    expect(response.statusCode).toBe(404);
    expect(response.body).not.toContain('Deliberate');
  });

  it('a client navigation to a benchmark page is not found either', async () => {
    const tree = '1;shop/home';
    const response = await stack.app.inject({
      url: `/bench/items?_p=${payloadHash({ tree, prefetch: undefined })}`,
      headers: { 'strata-payload': '1', 'strata-tree': tree },
    });
    expect(response.statusCode).toBe(404);
    expect(response.body).not.toContain('Item 1');
  });

  it('the catalogue itself is served', async () => {
    expect((await stack.app.inject({ url: '/items' })).statusCode).toBe(200);
  });
});

describe('the catalogue with the drills on', () => {
  let stack: RenderUnderTest;
  beforeAll(async () => {
    stack = await startRender({ RENDER_ERROR_DRILLS: 'true' }, { app: createCatalogApp });
  });
  afterAll(() => stack.stop());

  it('the drills fail as designed', async () => {
    expect((await stack.app.inject({ url: '/errors/server' })).statusCode).toBe(500);
    expect((await stack.app.inject({ url: '/errors/client' })).statusCode).toBe(200);
  });

  it.each(BENCH)('%s is still not found', async (url) => {
    expect((await stack.app.inject({ url })).statusCode).toBe(404);
  });
});

describe('the bench app', () => {
  let stack: RenderUnderTest;
  beforeAll(async () => {
    stack = await startRender({ RENDER_ERROR_DRILLS: '' });
  });
  afterAll(() => stack.stop());

  it.each(BENCH)('%s is served', async (url) => {
    expect((await stack.app.inject({ url })).statusCode).toBe(200);
  });

  it.each(['/', '/items', '/items/7', '/account'])('the catalogue’s %s is served', async (url) => {
    expect((await stack.app.inject({ url })).statusCode).toBe(200);
  });

  it('does not turn on the drills', async () => {
    expect((await stack.app.inject({ url: '/errors/client' })).statusCode).toBe(404);
  });
});
