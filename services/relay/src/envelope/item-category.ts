/**
 * Item type → data category, as the SDK (`DATA_CATEGORY_OVERRIDES`) and the rate-limiting spec
 * name them. Unknown item types map to their own name, which no limit but `all` matches.
 */

const OVERRIDES: Readonly<Record<string, string>> = {
  event: 'error',
  transaction: 'transaction',
  attachment: 'attachment',
  session: 'session',
  sessions: 'session',
  client_report: 'internal',
  user_report: 'default',
  feedback: 'feedback',
  profile: 'profile',
  profile_chunk: 'profile_chunk',
  replay_event: 'replay',
  replay_recording: 'replay',
  replay_video: 'replay',
  check_in: 'monitor',
  raw_security: 'security',
  security: 'security',
  span: 'span',
  log: 'log_item',
  metric: 'metric',
  trace_metric: 'trace_metric',
  statsd: 'metric_bucket',
  metric_buckets: 'metric_bucket',
};

/** The data category of an item type. */
export function itemCategory(type: string): string {
  return OVERRIDES[type] ?? type;
}

/** How many units an item counts as in outcomes (container items count their entries). */
export function itemQuantity(header: Readonly<Record<string, unknown>>): number {
  const count = header.item_count;
  return typeof count === 'number' && Number.isSafeInteger(count) && count > 0 ? count : 1;
}
