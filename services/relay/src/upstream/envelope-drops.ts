/**
 * What the forwarder drops of a spooled envelope, each dropped item recorded as an outcome for
 * its DSN: every item (the envelope cannot or may no longer be sent), or only the items whose
 * category upstream rate limited after the envelope was spooled. Pure apart from the sink.
 */
import { itemCategory, itemQuantity } from '../envelope/item-category.js';
import { parseEnvelope } from '../envelope/parse-envelope.js';
import { serializeEnvelope } from '../envelope/serialize-envelope.js';
import type { DropReason } from '../outcomes/drop-reason.js';
import type { OutcomeSink } from '../outcomes/outcome-sink.js';
import { isRateLimited, type RateLimits } from '../rate-limits/rate-limits.js';

/** Records every item of `body` as dropped for `reason` (nothing when it does not parse). */
export function recordAllDropped(
  outcomes: OutcomeSink,
  dsnKey: string,
  body: Uint8Array,
  reason: DropReason,
): void {
  const parsed = parseEnvelope(body);
  if (!parsed.ok) return;
  for (const item of parsed.envelope.items) {
    outcomes.record(dsnKey, reason, itemCategory(item.type), itemQuantity(item.header));
  }
}

/**
 * `body` without the items `limits` cover at `now`, each recorded as `rate-limited`: the same
 * bytes when none is (or the body does not parse), null when every item is.
 */
export function removeRateLimited(
  outcomes: OutcomeSink,
  dsnKey: string,
  limits: RateLimits,
  body: Uint8Array,
  now: number,
): Uint8Array | null {
  // The common case, no active limit, costs no parse.
  if (Object.keys(limits).length === 0) return body;
  const parsed = parseEnvelope(body);
  if (!parsed.ok) return body;
  const kept = parsed.envelope.items.filter((item) => {
    const category = itemCategory(item.type);
    if (!isRateLimited(limits, category, now)) return true;
    outcomes.record(dsnKey, 'rate-limited', category, itemQuantity(item.header));
    return false;
  });
  if (kept.length === parsed.envelope.items.length) return body;
  return kept.length === 0 ? null : serializeEnvelope({ ...parsed.envelope, items: kept });
}
