/**
 * The benchmark pages (/bench/*) and the failure drill pages (/errors/*) are off unless
 * configuration turns them on (RENDER_BENCH_PAGES, RENDER_ERROR_DRILLS): their URLs are then
 * the catalogue's not-found page, for documents and client navigations alike.
 */
import { payloadHash } from '@strata/web';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRender, type RenderUnderTest } from './harness/start-render.js';

const DRILLS = ['/errors/server', '/errors/segment', '/errors/client', '/errors/render'];
const BENCH = ['/bench/items', '/bench/items/7', '/bench/category/cat-3', '/bench/about'];

describe('with the defaults', () => {
  let stack: RenderUnderTest;
  // Empty values are unset: the service's own defaults apply.
  beforeAll(async () => {
    stack = await startRender({ RENDER_BENCH_PAGES: '', RENDER_ERROR_DRILLS: '' });
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

describe('turned on', () => {
  let stack: RenderUnderTest;
  beforeAll(async () => {
    stack = await startRender({ RENDER_BENCH_PAGES: 'true', RENDER_ERROR_DRILLS: 'true' });
  });
  afterAll(() => stack.stop());

  it.each(BENCH)('%s is served', async (url) => {
    expect((await stack.app.inject({ url })).statusCode).toBe(200);
  });

  it('the drills fail as designed', async () => {
    expect((await stack.app.inject({ url: '/errors/server' })).statusCode).toBe(500);
    expect((await stack.app.inject({ url: '/errors/client' })).statusCode).toBe(200);
  });
});

describe('each switch alone', () => {
  it('RENDER_BENCH_PAGES does not turn on the drills, nor RENDER_ERROR_DRILLS the bench', async () => {
    const bench = await startRender({ RENDER_BENCH_PAGES: 'true', RENDER_ERROR_DRILLS: '' });
    const drills = await startRender({ RENDER_BENCH_PAGES: '', RENDER_ERROR_DRILLS: 'true' });
    try {
      expect((await bench.app.inject({ url: '/bench/items' })).statusCode).toBe(200);
      expect((await bench.app.inject({ url: '/errors/client' })).statusCode).toBe(404);
      expect((await drills.app.inject({ url: '/bench/items' })).statusCode).toBe(404);
      expect((await drills.app.inject({ url: '/errors/client' })).statusCode).toBe(200);
    } finally {
      await bench.stop();
      await drills.stop();
    }
  });
});
