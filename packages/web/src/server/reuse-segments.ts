/**
 * Decides which segments the browser can keep: walking from the root, a segment is reused when
 * the browser's key for that position names the same segment and the values its loader read
 * last time (named in the key) are unchanged for this URL. Pure.
 */
import { readKeyNames, segmentKey } from '../protocol/tree-header.js';

/** How many leading segments the browser keeps (index of the first one to send). */
export function reusableCount(
  segmentIds: readonly string[],
  clientKeys: readonly string[],
  request: { params: Readonly<Record<string, string>>; search: URLSearchParams },
  leafAlwaysFresh = true,
): number {
  const limit = Math.min(segmentIds.length - (leafAlwaysFresh ? 1 : 0), clientKeys.length);
  for (let index = 0; index < limit; index++) {
    const names = readKeyNames(clientKeys[index] ?? '');
    if (!names || names.id !== segmentIds[index]) return index;
    const params = Object.fromEntries(
      names.params.map((name) => [name, request.params[name] ?? '']),
    );
    const search = Object.fromEntries(
      names.search.map((name) => [name, request.search.get(name) ?? '']),
    );
    if (segmentKey(names.id, { params, search }) !== clientKeys[index]) return index;
  }
  return limit;
}
