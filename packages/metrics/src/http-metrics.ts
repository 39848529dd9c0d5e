/**
 * Request duration of a Fastify service as the standard Prometheus histogram
 * `http_request_duration_seconds{method, route, status_code}`: `route` is the route pattern
 * (`/items/:id`), never the URL, so the label stays small; requests no route matched are
 * `route="unmatched"`. A service whose catch-all route serves many pages can name the page's own
 * pattern instead (`routeOf`). Probes and the scrape itself are not counted unless the caller says
 * otherwise. Stock HTTP dashboards and alerts work on it unchanged.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Histogram, type Registry } from 'prom-client';

/** Seconds: from a cached payload (a few ms) to a slow streamed page. */
const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** Routes every service has that nobody waits on: liveness, readiness and /metrics. */
export const PROBE_ROUTES: readonly string[] = ['/healthz', '/readyz', '/metrics'];

/** How requests are counted. */
export interface HttpMetricsOptions {
  /** Route labels not counted (default: PROBE_ROUTES). */
  readonly ignoreRoutes?: readonly string[];
  /**
   * The route label of a request when the service knows a finer pattern than Fastify's route
   * (the page a catch-all route rendered); undefined: Fastify's pattern. Its values must come
   * from a fixed set, never from the URL, or every new URL adds a time series.
   */
  readonly routeOf?: (request: FastifyRequest) => string | undefined;
}

export function registerHttpMetrics(
  app: FastifyInstance,
  registry: Registry,
  options: HttpMetricsOptions = {},
): void {
  const ignored = new Set(options.ignoreRoutes ?? PROBE_ROUTES);
  const routeOf = options.routeOf;
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from the request arriving to its answer finishing, by route pattern and status',
    labelNames: ['method', 'route', 'status_code'],
    buckets: BUCKETS,
    registers: [registry],
  });
  // A callback hook rather than an async one: it runs on every request and awaits nothing.
  app.addHook('onResponse', (request, reply, done) => {
    const route = routeOf?.(request) ?? request.routeOptions.url ?? 'unmatched';
    if (!ignored.has(route)) {
      duration.observe(
        { method: request.method, route, status_code: reply.statusCode },
        reply.elapsedTime / 1000,
      );
    }
    done();
  });
}
