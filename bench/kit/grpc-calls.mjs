// How many gRPC calls a service has served, from its Prometheus `GET /metrics`: the sum of
// `grpc_server_handling_seconds_count` over every method and code. A bench reads it before and
// after a run to know that every request reached the service, whatever its speed.

/** The calls counted in one scrape's text (0 when the histogram has no series yet). */
export function grpcCallsServedIn(metricsText) {
  let calls = 0;
  for (const line of metricsText.split('\n'))
    if (line.startsWith('grpc_server_handling_seconds_count{'))
      calls += Number(line.slice(line.lastIndexOf(' ') + 1));
  return calls;
}

/** Scrapes `http://host:port/metrics` and counts the calls served so far. */
export async function grpcCallsServed(port, host = '127.0.0.1') {
  const response = await fetch(`http://${host}:${port}/metrics`);
  if (!response.ok) throw new Error(`GET /metrics on ${host}:${port} answered ${response.status}`);
  return grpcCallsServedIn(await response.text());
}
