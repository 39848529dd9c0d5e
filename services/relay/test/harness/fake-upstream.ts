/**
 * A fake Sentry upstream (Relay's `mini_sentry` analogue) on 127.0.0.1: records every envelope
 * (decompressed), answers from a script (status + headers, optional delay or hold), and collects
 * problems: anything that is not a well-formed envelope POST with auth, and any event the relay
 * reports about itself. Tests assert `problems` is empty after each test.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { parseEnvelope } from '../../src/envelope/parse-envelope.js';
import type { Envelope } from '../../src/envelope/envelope.js';

/** One recorded request. */
export interface Received {
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
  readonly envelope: Envelope | undefined;
}

/** A scripted answer. */
export interface ScriptedResponse {
  readonly status: number;
  readonly headers?: Record<string, string>;
  /** Wait this long before answering. */
  readonly delayMs?: number;
}

/** The fake upstream. */
export interface FakeUpstream {
  readonly url: string;
  readonly received: Received[];
  readonly problems: string[];
  /** Answers to use, in order, before falling back to 200. */
  script(...responses: ScriptedResponse[]): void;
  /** Holds every answer until `release()` (to observe concurrency). */
  hold(): void;
  release(): void;
  maxConcurrent(): number;
  /** Resolves once `count` envelopes have been received (or rejects after `timeoutMs`). */
  waitFor(count: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

/** Starts a fake upstream on an ephemeral loopback port. */
export async function startFakeUpstream(): Promise<FakeUpstream> {
  const received: Received[] = [];
  const problems: string[] = [];
  const scripted: ScriptedResponse[] = [];
  let held: Array<() => void> | null = null;
  let concurrent = 0;
  let peak = 0;
  const waiters: Array<{ count: number; resolve: () => void }> = [];

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    concurrent += 1;
    peak = Math.max(peak, concurrent);
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      let body = Buffer.concat(chunks);
      if (req.headers['content-encoding'] === 'gzip') body = gunzipSync(body);
      const parsed = parseEnvelope(body);
      const envelope = parsed.ok ? parsed.envelope : undefined;
      if (req.method !== 'POST') problems.push(`unexpected ${req.method} ${req.url}`);
      if (!parsed.ok) problems.push(`relay sent a malformed envelope: ${parsed.error.message}`);
      if (!/^\/(?:api\/\d+\/envelope\/\?.*sentry_key=|stream$)/.test(req.url ?? '')) {
        problems.push(`unexpected upstream path ${req.url}`);
      }
      for (const item of envelope?.items ?? []) {
        const text = Buffer.from(item.payload).toString('utf8');
        if (item.type === 'event' && text.includes('strata-relay')) {
          problems.push(`relay reported its own error: ${text.slice(0, 200)}`);
        }
      }
      received.push({ url: req.url ?? '', headers: req.headers, body, envelope });
      const ready = waiters.filter((waiter) => received.length >= waiter.count);
      for (const waiter of ready) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
      const answer = scripted.shift() ?? { status: 200 };
      const respond = () => {
        concurrent -= 1;
        res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
        res.end('{}');
      };
      const afterDelay = () => (answer.delayMs ? setTimeout(respond, answer.delayMs) : respond());
      if (held) held.push(afterDelay);
      else afterDelay();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    received,
    problems,
    script: (...responses) => void scripted.push(...responses),
    hold() {
      held = [];
    },
    release() {
      const pending = held ?? [];
      held = null;
      for (const respond of pending) respond();
    },
    maxConcurrent: () => peak,
    waitFor(count, timeoutMs = 10_000) {
      if (received.length >= count) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`upstream got ${received.length} envelopes, expected ${count}`)),
          timeoutMs,
        );
        waiters.push({ count, resolve: () => (clearTimeout(timer), resolve()) });
      });
    },
    async close() {
      for (const respond of held ?? []) respond();
      held = null;
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
