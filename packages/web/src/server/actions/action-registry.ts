/**
 * Every action of the application by id. Built once at start; ids clash only if two actions
 * share module and name, and a segment's action names only if two of its actions share a name:
 * both are refused.
 */
import type { ActionIds } from '../../render/action-ids.js';
import { actionId, type ActionDefinition } from './define-action.js';

/** Actions by id, ids by action, and each segment's ids by action name. */
export interface ActionRegistry<Services> {
  byId(id: string): ActionDefinition<Services> | undefined;
  idOf(action: { module: string; name: string }): string;
  /** What each segment's components read with `useActionId`. */
  readonly bySegment: ActionIds;
  readonly size: number;
}

const ACTION_ID = /^[0-9a-f]{32}$/;

/** Whether a string has the shape of an action id (anything else is a malformed request). */
export function isWellFormedActionId(id: string): boolean {
  return ACTION_ID.test(id);
}

/** Builds the registry with the configured salt. */
export function createActionRegistry<Services>(
  salt: string,
  actions: readonly ActionDefinition<Services, never>[],
): ActionRegistry<Services> {
  const byId = new Map<string, ActionDefinition<Services>>();
  const bySegment: Record<string, Record<string, string>> = {};
  for (const action of actions) {
    const id = actionId(salt, action);
    if (byId.has(id)) throw new Error(`Action ${action.module}#${action.name} is defined twice`);
    byId.set(id, action as unknown as ActionDefinition<Services>);
    const own = (bySegment[action.segment] ??= {});
    if (own[action.name])
      throw new Error(`Segment "${action.segment}" has two actions named "${action.name}"`);
    own[action.name] = id;
  }
  return {
    byId: (id) => byId.get(id),
    idOf: (action) => actionId(salt, action),
    bySegment,
    size: byId.size,
  };
}
