/**
 * The public ids of the actions each segment owns, as the server derived them from its salt:
 * rendered into the document's boot record, so the browser resolves them like the server does.
 * A segment's components read their own with `useActionId`.
 */
import { createContext, use } from 'react';
import { SegmentContext } from './segment-tree.js';

/** Action ids by segment id, then by action name. */
export type ActionIds = Readonly<Record<string, Readonly<Record<string, string>>>>;

export const ActionIdsContext = createContext<ActionIds>({});

/**
 * The public id of the action `name` that belongs to the segment being rendered (its definition
 * names the segment); throws when the segment has no such action.
 */
export function useActionId(name: string): string {
  const segment = use(SegmentContext);
  const ids = use(ActionIdsContext);
  if (!segment) throw new Error(`useActionId("${name}") is called outside a route segment`);
  const id = ids[segment.id]?.[name];
  if (!id)
    throw new Error(
      `Segment "${segment.id}" has no action "${name}": an action names the segment it belongs to`,
    );
  return id;
}
