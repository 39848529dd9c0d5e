/**
 * GET /readyz against a real data service: ready while it answers, 503 within the probe's
 * timeout once it is gone, ready again when it is back; /healthz (liveness) stays 200.
 */
import { loadDataConfig, startDataService } from '@strata/data';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRender, type RenderUnderTest } from './harness/start-render.js';

let render: RenderUnderTest;
beforeAll(async () => {
  render = await startRender();
}, 60_000);
afterAll(() => render?.stop());

describe('GET /readyz', () => {
  it('follows the data service: ready, unavailable while it is down, ready when it is back', async () => {
    const ready = await render.app.inject('/readyz');
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({
      status: 'ok',
      build: 'test-build',
      data: { reachable: 1, replicas: 1 },
      cache: 'none',
    });

    const port = render.data.port;
    await render.data.stop();
    const started = Date.now();
    const down = await render.app.inject('/readyz');
    expect(Date.now() - started).toBeLessThan(2000);
    expect(down.statusCode).toBe(503);
    expect(down.json()).toMatchObject({ status: 'unavailable', data: { reachable: 0 } });
    expect((await render.app.inject('/healthz')).statusCode).toBe(200);

    const back = await startDataService(
      loadDataConfig({ DATA_PORT: String(port), DATA_DIR: 'memory://' }),
      pino({ level: 'silent' }),
    );
    try {
      expect((await render.app.inject('/readyz')).statusCode).toBe(200);
    } finally {
      await back.stop();
    }
  }, 60_000);
});
