/**
 * The only network call: POST an envelope to a configured upstream URL with node:http(s),
 * keep-alive, a timeout, and no redirect following (a 3xx is returned as a final status).
 * Bodies over 32 KiB are gzipped for Sentry (as the Node SDK does). I/O adapter.
 */
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { gzipSync } from 'node:zlib';
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

/** Creates the sender with pooled keep-alive connections. */
export function createHttpSend(options: {
  readonly maxSockets: number;
  readonly timeoutMs: number;
  readonly userAgent: string;
}): { send: SendEnvelope; close(): void } {
  const agentOptions = { keepAlive: true, maxSockets: options.maxSockets, keepAliveMsecs: 15_000 };
  const httpAgent = new HttpAgent(agentOptions);
  const httpsAgent = new HttpsAgent(agentOptions);

  // Parsed once per target: URL parsing showed up in profiles at thousands of sends a second.
  const urls = new Map<string, URL>();
  const urlOf = (raw: string): URL => {
    let url = urls.get(raw);
    if (!url) {
      url = new URL(raw);
      urls.set(raw, url);
    }
    return url;
  };

  const send: SendEnvelope = (target, body) =>
    new Promise((resolve, reject) => {
      const url = urlOf(target.url);
      const compress = target.kind === 'sentry' && body.length > GZIP_THRESHOLD;
      const payload = compress ? gzipSync(body) : body;
      const headers: Record<string, string> = {
        'content-type': 'application/x-sentry-envelope',
        'content-length': String(payload.length),
        'user-agent': options.userAgent,
      };
      if (compress) headers['content-encoding'] = 'gzip';
      const isHttps = url.protocol === 'https:';
      const req = (isHttps ? httpsRequest : httpRequest)(url, {
        method: 'POST',
        headers,
        agent: isHttps ? httpsAgent : httpAgent,
        timeout: options.timeoutMs,
      });
      req.on('timeout', () =>
        req.destroy(new Error(`upstream timed out after ${options.timeoutMs} ms`)),
      );
      req.on('error', reject);
      req.on('response', (res: IncomingMessage) => {
        res.resume(); // discard the body; only status and headers matter
        res.on('error', reject);
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            rateLimitsHeader: headerValue(res.headers['x-sentry-rate-limits']),
            retryAfterHeader: headerValue(res.headers['retry-after']),
          }),
        );
      });
      req.end(payload);
    });

  return {
    send,
    close() {
      httpAgent.destroy();
      httpsAgent.destroy();
    },
  };
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
}
