import { AsyncLocalStorage, AsyncResource } from 'node:async_hooks';
import { once } from 'node:events';
import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasSlowAsyncBind, installLeanAsyncBind } from './lean-async-bind.js';

const nodeBind = AsyncResource.prototype.bind;
const requestContext = new AsyncLocalStorage<string>();

/** A resource created inside `store`'s context, as node's HTTP/2 client creates its own. */
const resourceIn = (store: string) =>
  requestContext.run(store, () => new AsyncResource('StrataTest'));

describe('the lean AsyncResource.bind', () => {
  let restore: (() => void) | undefined;
  beforeAll(() => {
    restore = installLeanAsyncBind();
  });
  afterAll(() => restore?.());

  it('replaces node’s bind only where every call builds deprecate wrappers (node 20)', () => {
    const slow = hasSlowAsyncBind(nodeBind);
    expect(restore !== undefined).toBe(slow);
    expect(AsyncResource.prototype.bind !== nodeBind).toBe(slow);
    expect(hasSlowAsyncBind(AsyncResource.prototype.bind)).toBe(false);
    expect(installLeanAsyncBind()).toBeUndefined();
  });

  it.runIf(process.versions.node.startsWith('20.'))('finds node 20’s bind slow', () => {
    expect(hasSlowAsyncBind(nodeBind)).toBe(true);
  });

  it('runs the function in the resource’s context with the caller’s this and arguments', () => {
    const bound = resourceIn('request-1').bind(function (this: unknown, a: number, b: number) {
      return [requestContext.getStore(), this, a + b];
    });
    const receiver = { name: 'receiver' };
    expect(requestContext.run('elsewhere', () => bound.call(receiver, 2, 3))).toEqual([
      'request-1',
      receiver,
      5,
    ]);
  });

  it('binds this when thisArg is given, as node does', () => {
    const self = { name: 'self' };
    const read = function (this: unknown) {
      return [requestContext.getStore(), this];
    };
    // @types/node leaves out bind's thisArg.
    const bound = Reflect.apply(AsyncResource.prototype.bind, resourceIn('request-2'), [
      read,
      self,
    ]) as typeof read;
    expect(bound.call({ other: true })).toEqual(['request-2', self]);
  });

  it('keeps the length and the deprecated asyncResource, warning once with DEP0172', async () => {
    const resource = resourceIn('request-3');
    const bound = resource.bind((_a: number, _b: number, _c: number) => undefined) as unknown as {
      length: number;
      asyncResource: AsyncResource;
    };
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    try {
      expect(bound.length).toBe(3);
      expect(Object.getOwnPropertyDescriptor(bound, 'length')).toMatchObject({
        writable: false,
        enumerable: false,
        configurable: true,
      });
      expect(bound.asyncResource).toBe(resource);
      expect(bound.asyncResource).toBe(resource);
      const other = resourceIn('request-4');
      bound.asyncResource = other;
      expect(bound.asyncResource).toBe(other);
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.filter((w) => (w as { code?: string }).code === 'DEP0172')).toHaveLength(1);
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('refuses a non-function with node’s own error', () => {
    expect(() => resourceIn('x').bind('nope' as never)).toThrow(
      expect.objectContaining({ code: 'ERR_INVALID_ARG_TYPE' }),
    );
  });

  describe('under node’s HTTP/2 client, which binds once per request', () => {
    let server: http2.Http2Server;
    let session: http2.ClientHttp2Session;
    beforeAll(async () => {
      server = http2.createServer((_request, response) => response.end('ok'));
      server.listen(0, '127.0.0.1');
      await once(server, 'listening');
      session = http2.connect(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    });
    afterAll(async () => {
      session.close();
      await new Promise((resolve) => server.close(resolve));
    });

    it('answers each request in the context it was made in, also before the session connects', async () => {
      const ask = (store: string) =>
        requestContext.run(store, async () => {
          const stream = session.request({ ':path': '/' });
          stream.end();
          stream.resume();
          await once(stream, 'response');
          const seen = requestContext.getStore();
          await once(stream, 'close');
          return seen;
        });
      expect(await Promise.all(['a', 'b', 'c'].map(ask))).toEqual(['a', 'b', 'c']);
      expect(await ask('d')).toBe('d');
    });
  });
});
