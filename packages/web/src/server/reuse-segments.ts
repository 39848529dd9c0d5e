/**
 * Decides which segments the browser can keep: walking from the root, a segment is reused when
 * the browser's key for that position names the same segment and the values its loader read
 * last time (named in the key) are unchanged for this URL. Pure.
 */
import { segmentKey } from '../protocol/tree-header.js';

/** Parses the read names out of a key: `item(p.id=42&s.q=x)` → params [id], search [q]. */
function readNames(key: string): { id: string; params: string[]; search: string[] } | null {
  const open = key.indexOf('(');
  if (open < 0) return { id: key, params: [], search: [] };
  const id = key.slice(0, open);
  const params: string[] = [];
  const search: string[] = [];
  for (const pair of key.slice(open + 1, -1).split('&')) {
    const [name] = pair.split('=');
    if (!name) return null;
    let decoded: string;
    try {
      decoded = decodeURIComponent(name.slice(2));
    } catch {
      return null;
    }
    if (name.startsWith('p.')) params.push(decoded);
    else if (name.startsWith('s.')) search.push(decoded);
    else return null;
  }
  return { id, params, search };
}

/** How many leading segments the browser keeps (index of the first one to send). */
export function reusableCount(
  segmentIds: readonly string[],
  clientKeys: readonly string[],
  request: { params: Readonly<Record<string, string>>; search: URLSearchParams },
  leafAlwaysFresh = true,
): number {
  const limit = Math.min(segmentIds.length - (leafAlwaysFresh ? 1 : 0), clientKeys.length);
  for (let index = 0; index < limit; index++) {
    const names = readNames(clientKeys[index] ?? '');
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
