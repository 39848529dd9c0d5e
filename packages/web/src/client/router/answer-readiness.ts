/**
 * When a payload answer's page can render: once the segments above its first loading view
 * have arrived (the rest stream in behind it). A prefetched answer that has fully arrived is
 * ready synchronously, so its navigation commits in the same task as the click.
 */
import type { RouteRecord } from '../../protocol/payload-records.js';
import { isFulfilled } from '../../render/tracked-promise.js';
import { firstLoadingIndex } from '../../routes/loading-boundary.js';
import type { RouteTable } from '../../routes/route-table.js';
import type { LivePayload } from './live-payload.js';
import { completeWith } from './payload-request.js';

/** An answer whose page can render. */
export interface ReadyAnswer {
  readonly payload: LivePayload;
  readonly route: RouteRecord;
}

/** The segments that must have arrived before the page can show. */
function blocking<S>(table: RouteTable<S>, route: RouteRecord) {
  const defs = route.segments.map((s) => table.byId.get(s.id) ?? {});
  return route.segments.slice(route.from, Math.min(route.until, firstLoadingIndex(defs)));
}

/** The answer, if everything its page needs has already arrived; undefined otherwise. */
export function readyNow<S>(
  table: RouteTable<S>,
  payload: Promise<LivePayload>,
): ReadyAnswer | undefined {
  if (!isFulfilled(payload)) return undefined;
  const live = payload.value;
  if (!isFulfilled(live.route)) return undefined;
  const route = live.route.value;
  if (route.until < route.segments.length) return undefined;
  return blocking(table, route).every((s) => isFulfilled(live.segment(s.id)))
    ? { payload: live, route }
    : undefined;
}

/**
 * Waits until the answer's page can render. An auto prefetch that stopped at a loading view
 * is completed by `fetchRest` (what it has shows now, the rest streams in).
 */
export async function whenReady<S>(
  table: RouteTable<S>,
  payload: Promise<LivePayload>,
  fetchRest: () => Promise<LivePayload>,
): Promise<ReadyAnswer> {
  let live = await payload;
  let route = await live.route;
  if (route.until < route.segments.length) {
    live = completeWith(
      live,
      fetchRest(),
      new Set(route.segments.slice(route.until).map((s) => s.id)),
    );
    route = { ...route, until: route.segments.length };
  }
  await Promise.all(blocking(table, route).map((s) => live.segment(s.id)));
  return { payload: live, route };
}
