import { describe, expect, it } from 'vitest';
import { routeMetricsRequest } from './metrics-route.js';

describe('routeMetricsRequest', () => {
  it('serves GET /metrics, with or without a query string', () => {
    expect(routeMetricsRequest('GET', '/metrics')).toBe('metrics');
    expect(routeMetricsRequest('GET', '/metrics?name[]=up')).toBe('metrics');
  });

  it('refuses other methods on /metrics with 405', () => {
    for (const method of ['POST', 'PUT', 'DELETE', 'HEAD', undefined])
      expect(routeMetricsRequest(method, '/metrics')).toBe(405);
  });

  it('answers 404 for every other path, whatever the method', () => {
    for (const url of ['/', '/metrics/', '/metricsx', '/healthz', '', undefined])
      expect(routeMetricsRequest('GET', url)).toBe(404);
    expect(routeMetricsRequest('POST', '/other')).toBe(404);
  });
});
