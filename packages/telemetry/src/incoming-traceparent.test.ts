/**
 * Against a real node:http server: the header is added before the server emits 'request' (where
 * @sentry/node reads it, through its wrapper of `server.emit`), and only when it should be.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { continueW3cTraceparent } from './incoming-traceparent.js';

const TRACE = '0af7651916cd43dd8448eb211c80319c';
const SPAN = 'b7ad6b7169203331';

let server: Server;
let origin: string;
/** sentry-trace as a wrapper of `server.emit('request')` saw it, like the SDK's. */
const seenAtEmit: (string | string[] | undefined)[] = [];

beforeAll(async () => {
  server = createServer((_request, response) => response.end());
  const emit = server.emit.bind(server);
  server.emit = ((event: string, ...args: unknown[]) => {
    if (event === 'request')
      seenAtEmit.push((args[0] as { headers: IncomingHttpHeaders }).headers['sentry-trace']);
    return emit(event, ...args);
  }) as Server['emit'];
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});

afterAll(() => new Promise((resolve) => server?.close(resolve)));

async function sentryTraceSeenFor(headers: Record<string, string>) {
  await (await fetch(origin, { headers })).arrayBuffer();
  return seenAtEmit.at(-1);
}

describe('continueW3cTraceparent', () => {
  it('adds sentry-trace to a request with only a valid traceparent, until stopped', async () => {
    const stop = continueW3cTraceparent();
    // Idempotent: a second start does not subscribe twice.
    expect(continueW3cTraceparent()).toBe(stop);
    try {
      expect(await sentryTraceSeenFor({ traceparent: `00-${TRACE}-${SPAN}-01` })).toBe(
        `${TRACE}-${SPAN}-1`,
      );
      expect(await sentryTraceSeenFor({ traceparent: `ff-${TRACE}-${SPAN}-01` })).toBeUndefined();
      expect(await sentryTraceSeenFor({})).toBeUndefined();
      const own = `${'1'.repeat(32)}-${SPAN}-0`;
      expect(
        await sentryTraceSeenFor({ traceparent: `00-${TRACE}-${SPAN}-01`, 'sentry-trace': own }),
      ).toBe(own);
    } finally {
      stop();
    }
    expect(await sentryTraceSeenFor({ traceparent: `00-${TRACE}-${SPAN}-01` })).toBeUndefined();
  });
});
