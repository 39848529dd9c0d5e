/**
 * Every action of the application by id. Built once at start; ids clash only if two actions
 * share module and name, which is refused.
 */
import { actionId, type ActionDefinition } from './define-action.js';

/** Actions by id, and ids by action. */
export interface ActionRegistry<Services> {
  byId(id: string): ActionDefinition<Services> | undefined;
  idOf(action: { module: string; name: string }): string;
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
  for (const action of actions) {
    const id = actionId(salt, action);
    if (byId.has(id)) throw new Error(`Action ${action.module}#${action.name} is defined twice`);
    byId.set(id, action as unknown as ActionDefinition<Services>);
  }
  return { byId: (id) => byId.get(id), idOf: (action) => actionId(salt, action), size: byId.size };
}
