/**
 * The only network call: POST an envelope to a configured upstream URL with undici's pooled
 * keep-alive client, a timeout, and no redirect following (a 3xx is returned as a final status).
 * undici instead of node:http: the node:http client (ClientRequest, IncomingMessage, Agent
 * bookkeeping) was the largest single share of the relay's CPU in profiles under load; and
 * undici's `dispatch` with a handler that keeps only what the forwarder reads, not `request`,
 * whose response stream cost more per envelope than the rest of the client (bench/relay).
 * Bodies over 32 KiB are gzipped for Sentry (as the Node SDK does), on libuv's threadpool in
 * small steps, so a large body never blocks the event loop. I/O adapter.
 */
import { Agent, type Dispatcher } from 'undici';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type { UpstreamTarget } from '../dsn/dsn-registry.js';

/** What the forwarder needs from an upstream response. */
export interface UpstreamResponse {
  readonly status: number;
  readonly rateLimitsHeader: string | undefined;
  readonly retryAfterHeader: string | undefined;
}

/** Sends one envelope; rejects on network errors and timeouts. */
export type SendEnvelope = (target: UpstreamTarget, body: Uint8Array) => Promise<UpstreamResponse>;

const GZIP_THRESHOLD = 32 * 1024;
const gzipAsync = promisify(gzip);

interface ParsedTarget {
  readonly origin: string;
  readonly path: string;
}

/** Creates the sender with pooled keep-alive connections (at most `maxSockets` per origin). */
export function createHttpSend(options: {
  readonly maxSockets: number;
  readonly timeoutMs: number;
  readonly userAgent: string;
}): { send: SendEnvelope; close(): void } {
  const agent = new Agent({
    connections: options.maxSockets,
    pipelining: 1,
    keepAliveTimeout: 15_000,
    headersTimeout: options.timeoutMs,
    bodyTimeout: options.timeoutMs,
    connect: { timeout: Math.min(options.timeoutMs, 10_000) },
  });

  // Parsed once per target: URL parsing showed up in profiles at thousands of sends a second.
  const targets = new Map<string, ParsedTarget>();
  const targetOf = (raw: string): ParsedTarget => {
    let target = targets.get(raw);
    if (!target) {
      const url = new URL(raw);
      target = { origin: url.origin, path: `${url.pathname}${url.search}` };
      targets.set(raw, target);
    }
    return target;
  };

  const send: SendEnvelope = async (target, body) => {
    const { origin, path } = targetOf(target.url);
    const compress = target.kind === 'sentry' && body.length > GZIP_THRESHOLD;
    const payload = compress ? await gzipAsync(body) : body;
    const headers: Record<string, string> = {
      'content-type': 'application/x-sentry-envelope',
      'content-length': String(payload.length),
      'user-agent': options.userAgent,
    };
    if (compress) headers['content-encoding'] = 'gzip';
    return new Promise<UpstreamResponse>((resolve, reject) => {
      agent.dispatch(
        { origin, path, method: 'POST', headers, body: payload },
        new StatusHandler(resolve, reject),
      );
    });
  };

  return {
    send,
    close() {
      void agent.destroy().catch(() => undefined);
    },
  };
}

/** Keeps a response's status and the two headers the forwarder acts on; drops its body as it arrives. */
class StatusHandler implements Dispatcher.DispatchHandler {
  private answer: UpstreamResponse | undefined;

  constructor(
    private readonly resolve: (response: UpstreamResponse) => void,
    private readonly reject: (error: Error) => void,
  ) {}

  onRequestStart(): void {}

  onResponseStart(
    _controller: Dispatcher.DispatchController,
    statusCode: number,
    headers: Record<string, string | string[] | undefined>,
  ): void {
    this.answer = {
      status: statusCode,
      rateLimitsHeader: headerValue(headers['x-sentry-rate-limits']),
      retryAfterHeader: headerValue(headers['retry-after']),
    };
  }

  /** The body is not needed: only status and headers decide what happens to the envelope. */
  onResponseData(): void {}

  onResponseEnd(): void {
    this.resolve(this.answer!);
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    this.reject(error);
  }
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
}
