/**
 * POSTs an OTLP/HTTP JSON body to the collector's `/v1/traces` URL with the configured headers
 * (for example an API key) and a deadline, through its own undici agent.
 */
import { Agent, request } from 'undici';
import type { SendSpans } from './span-batcher.js';

export interface OtlpHttpOptions {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
}

/** The sender, and how to end its connections (a request still running fails). */
export function createOtlpHttp(options: OtlpHttpOptions): {
  send: SendSpans;
  close(): Promise<void>;
} {
  const agent = new Agent({
    connections: 4,
    headersTimeout: options.timeoutMs,
    bodyTimeout: options.timeoutMs,
    connect: { timeout: Math.min(options.timeoutMs, 10_000) },
  });
  return {
    async send(body) {
      const response = await request(options.url, {
        method: 'POST',
        dispatcher: agent,
        headers: { ...options.headers, 'content-type': 'application/json' },
        body,
        // The whole exchange, including a collector that reads the body slowly.
        signal: AbortSignal.timeout(options.timeoutMs),
      });
      await response.body.dump();
      return response.statusCode;
    },
    close: () => agent.destroy(),
  };
}
