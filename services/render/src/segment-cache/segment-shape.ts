/**
 * What a segment's loader reads, learned from the keys it produced: the route params and search
 * params it named, and whether it ever touched cookies or headers. From that the cache derives
 * the storage key of a request before running the loader. Pure; never throws.
 */
import { readKeyNames, segmentKey } from '@strata/web';

/** The names a segment's loader has read so far in this build (a union over every run). */
export interface SegmentShape {
  readonly params: readonly string[];
  readonly search: readonly string[];
  /** The loader read a cookie or a header at least once: never share this segment. */
  readonly private: boolean;
}

/** More names than this and the segment is not cached (keys would be unbounded). */
export const MAX_SHAPE_NAMES = 32;

/** Member strings as stored (a set per segment): `!seen`, `p.<name>`, `s.<name>`, `!private`. */
export type ShapeMember = string;

const PRIVATE_MEMBER = '!private';
// Present in every stored shape, so a loader that reads nothing still has a non-empty set.
const SEEN_MEMBER = '!seen';

/** Reads the names out of a key the loader produced: `item(p.id=42&s.q=x)`. */
export function shapeFromKey(key: string, isPrivate: boolean): SegmentShape | null {
  const names = readKeyNames(key);
  return names ? { params: names.params, search: names.search, private: isPrivate } : null;
}

/** The union of two shapes; `changed` says whether `next` added anything to `known`. */
export function mergeShapes(
  known: SegmentShape | null,
  next: SegmentShape,
): { shape: SegmentShape; changed: boolean } {
  if (!known) return { shape: normalise(next), changed: true };
  const params = new Set([...known.params, ...next.params]);
  const search = new Set([...known.search, ...next.search]);
  const isPrivate = known.private || next.private;
  const changed =
    params.size !== known.params.length ||
    search.size !== known.search.length ||
    isPrivate !== known.private;
  return {
    shape: normalise({ params: [...params], search: [...search], private: isPrivate }),
    changed,
  };
}

/** Why lookups for this shape skip the cache, or null when they may use it. */
export function unshareableReason(shape: SegmentShape): 'private' | 'too-many-names' | null {
  if (shape.private) return 'private';
  return shape.params.length + shape.search.length > MAX_SHAPE_NAMES ? 'too-many-names' : null;
}

/** Whether lookups for this shape may use the cache at all. */
export function isShareable(shape: SegmentShape): boolean {
  return unshareableReason(shape) === null;
}

/** The storage key for this request: the segment id and the request's values of every name. */
export function storageKeyFor(
  segmentId: string,
  shape: SegmentShape,
  params: Readonly<Record<string, string>>,
  search: URLSearchParams,
): string {
  return segmentKey(segmentId, {
    params: Object.fromEntries(shape.params.map((name) => [name, params[name] ?? ''])),
    search: Object.fromEntries(shape.search.map((name) => [name, search.get(name) ?? ''])),
  });
}

/**
 * A key over every param and search value of the request: used to merge identical concurrent
 * requests in this process before the segment's shape is known.
 */
export function fullRequestKey(
  segmentId: string,
  params: Readonly<Record<string, string>>,
  search: URLSearchParams,
): string {
  const pairs: Record<string, string> = {};
  for (const [name, value] of search) pairs[name] = `${pairs[name] ?? ''}${value}\u0000`;
  return segmentKey(segmentId, { params, search: pairs });
}

/** The set members that store a shape. */
export function shapeToMembers(shape: SegmentShape): ShapeMember[] {
  return [
    SEEN_MEMBER,
    ...shape.params.map((name) => `p.${name}`),
    ...shape.search.map((name) => `s.${name}`),
    ...(shape.private ? [PRIVATE_MEMBER] : []),
  ];
}

/** Rebuilds a shape from stored members (unknown members are ignored); empty → unknown. */
export function shapeFromMembers(members: readonly ShapeMember[]): SegmentShape | null {
  if (!members.includes(SEEN_MEMBER)) return null;
  const params: string[] = [];
  const search: string[] = [];
  let isPrivate = false;
  for (const member of members) {
    if (member === PRIVATE_MEMBER) isPrivate = true;
    else if (member.startsWith('p.')) params.push(member.slice(2));
    else if (member.startsWith('s.')) search.push(member.slice(2));
  }
  return normalise({ params, search, private: isPrivate });
}

function normalise(shape: SegmentShape): SegmentShape {
  return {
    params: [...new Set(shape.params)].sort(),
    search: [...new Set(shape.search)].sort(),
    private: shape.private,
  };
}
