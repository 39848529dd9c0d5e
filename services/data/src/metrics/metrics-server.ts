/**
 * The Prometheus scrape endpoint: a bare node:http listener (the data service has no HTTP
 * framework, and one route does not need one) answering `GET /metrics` with the registry's
 * text; what else a request gets is metrics-route.ts's decision.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';
import { routeMetricsRequest } from './metrics-route.js';

/** A listening metrics endpoint. */
export interface MetricsServer {
  /** The bound port (useful with port 0). */
  readonly port: number;
  close(): Promise<void>;
}

export async function startMetricsServer(
  registry: Registry,
  options: { readonly host: string; readonly port: number },
): Promise<MetricsServer> {
  const server = createServer((request, response) => {
    answer(registry, request, response).catch(() => {
      if (!response.headersSent) response.writeHead(500);
      response.end();
    });
  });
  // A scrape is one short request: a stuck client must not hold a socket for long.
  server.requestTimeout = 10_000;
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        // Idle keep-alive scrapers would otherwise hold close() open.
        server.closeAllConnections();
      }),
  };
}

async function answer(
  registry: Registry,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  const route = routeMetricsRequest(request.method, request.url);
  if (route !== 'metrics') {
    response.writeHead(route, route === 405 ? { allow: 'GET' } : {});
    response.end();
    return;
  }
  const body = await registry.metrics();
  response.writeHead(200, { 'content-type': registry.contentType });
  response.end(body);
}
