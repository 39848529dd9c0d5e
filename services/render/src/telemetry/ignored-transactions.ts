/**
 * Requests whose transactions are not sent: the tunnel (telemetry about telemetry), probes,
 * metrics scrapes and static files. Pages, payloads, actions and the API are.
 */

/** Root-span names to drop, for the SDK's `ignoreSpans`. */
export function ignoredTransactions(tunnelPath: string): RegExp[] {
  const tunnel = tunnelPath.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return [
    new RegExp(`^(POST|OPTIONS) ${tunnel}/?$`),
    /^GET \/(healthz|readyz|metrics|favicon\.ico)$/,
    /^(GET|HEAD) \/assets\//,
  ];
}
