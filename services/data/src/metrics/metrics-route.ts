/** What the metrics listener answers, decided from a request's method and URL alone. */

/** `metrics`: send the registry; a number: answer that status with no body. */
export type MetricsRoute = 'metrics' | 404 | 405;

/** Only `GET /metrics` is served, so nothing else is reachable on the port. */
export function routeMetricsRequest(
  method: string | undefined,
  url: string | undefined,
): MetricsRoute {
  // The query string selects nothing (a scraper may add one).
  const path = (url ?? '').split('?', 1)[0];
  if (path !== '/metrics') return 404;
  return method === 'GET' ? 'metrics' : 405;
}
