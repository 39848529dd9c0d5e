import { describe, expect, it, vi } from 'vitest';
import type { TelemetryBoot } from '../../protocol/telemetry-boot.js';
import type { RouteTable } from '../../routes/route-table.js';
import type { BrowserTelemetry } from './browser-telemetry.js';
import { startLazyTelemetry, type LoadSdk } from './lazy-telemetry.js';

const boot: TelemetryBoot = {
  dsn: 'http://k@h/1',
  tunnel: '/monitoring',
  environment: 'test',
  tracesSampleRate: 1,
};
const table = {} as RouteTable<never>;

function fakeSdk(log: string[]): BrowserTelemetry {
  return {
    serverError: (_outcome, { digest }) => log.push(`server ${digest}`),
    clientError: (error) => log.push(`client ${(error as Error).message}`),
    uncaught: (error) =>
      log.push(`uncaught ${error instanceof Error ? error.message : String(error)}`),
    navigation: {
      started: ({ id, at }) => log.push(`start ${id} @${at}`),
      ended: ({ id, outcome, at }) => log.push(`end ${id} ${outcome} @${at}`),
    },
  };
}

function deferredLoad(log: string[]) {
  let resolve!: () => void;
  let reject!: (error: Error) => void;
  const gate = new Promise<void>((yes, no) => {
    resolve = yes;
    reject = no;
  });
  const load: LoadSdk = () =>
    gate.then(() => ({
      startBrowserTelemetry: (_b, _t, page) => (
        log.push(`init ${page.route} ${page.url}`),
        fakeSdk(log)
      ),
    }));
  return { load, resolve, reject };
}

describe('startLazyTelemetry', () => {
  it('replays what happened before the SDK arrived, in order, with the original times', async () => {
    const log: string[] = [];
    const { load, resolve } = deferredLoad(log);
    let clock = 1000;
    const events = new EventTarget();
    const telemetry = startLazyTelemetry(boot, table, '/items', {
      load,
      globalEvents: events,
      now: () => clock,
      url: 'https://shop.test/items',
    });
    telemetry.navigation.started({ id: 1, url: '/a' });
    clock = 1012;
    telemetry.navigation.ended({ id: 1, outcome: 'committed' });
    telemetry.serverError({}, { digest: 'd1', message: 'm' });
    events.dispatchEvent(Object.assign(new Event('error'), { error: new Error('early') }));
    // A cross-origin script's error has only a message; an error event with neither is no error.
    events.dispatchEvent(Object.assign(new Event('error'), { message: 'Script error.' }));
    events.dispatchEvent(new Event('error'));
    expect(log).toEqual([]);
    resolve();
    expect(await telemetry.ready).toBe(true);
    expect(log).toEqual([
      'init /items https://shop.test/items',
      'start 1 @1000',
      'end 1 committed @1012',
      'server d1',
      'uncaught early',
      'uncaught Script error.',
    ]);
    // Afterwards calls go straight through, and the page's own error listener is gone.
    telemetry.clientError(new Error('late'));
    events.dispatchEvent(Object.assign(new Event('error'), { error: new Error('ignored') }));
    expect(log.at(-1)).toBe('client late');
  });

  it('drops everything, quietly, when the SDK chunk cannot be loaded', async () => {
    const log: string[] = [];
    const { load, reject } = deferredLoad(log);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const telemetry = startLazyTelemetry(boot, table, '/', {
      url: 'https://shop.test/',
      load,
      globalEvents: new EventTarget(),
    });
    telemetry.clientError(new Error('lost'));
    reject(new Error('blocked'));
    expect(await telemetry.ready).toBe(false);
    telemetry.clientError(new Error('after'));
    expect(log).toEqual([]);
    expect(warn).toHaveBeenCalledOnce();
    warn.mockRestore();
  });

  it('gives the document trace to requests until the SDK runs, and on if it cannot load', async () => {
    const traced: TelemetryBoot = {
      ...boot,
      trace: { traceId: 'a'.repeat(32), sentryTrace: `${'a'.repeat(32)}-${'b'.repeat(16)}-1` },
    };
    const start = (load: LoadSdk) =>
      startLazyTelemetry(traced, table, '/', {
        url: 'https://shop.test/',
        load,
        globalEvents: new EventTarget(),
        fillRandom: (bytes) => void bytes.fill(0xc1),
      });
    const loaded = deferredLoad([]);
    const telemetry = start(loaded.load);
    expect(telemetry.traceHeaders()).toEqual({
      'sentry-trace': `${'a'.repeat(32)}-${'c1'.repeat(8)}-1`,
      traceparent: `00-${'a'.repeat(32)}-${'c1'.repeat(8)}-01`,
    });
    loaded.resolve();
    await telemetry.ready;
    expect(telemetry.traceHeaders()).toBeUndefined();

    const blocked = deferredLoad([]);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const without = start(blocked.load);
    blocked.reject(new Error('blocked'));
    expect(await without.ready).toBe(false);
    expect(without.traceHeaders()?.traceparent).toBe(`00-${'a'.repeat(32)}-${'c1'.repeat(8)}-01`);
    warn.mockRestore();
  });

  it('adds no trace headers when the document has no trace', () => {
    const telemetry = startLazyTelemetry(boot, table, '/', {
      url: 'https://shop.test/',
      load: deferredLoad([]).load,
      globalEvents: new EventTarget(),
    });
    expect(telemetry.traceHeaders()).toBeUndefined();
  });
});
