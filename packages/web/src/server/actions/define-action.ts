/**
 * Server actions: named functions the browser may call with POST. Each belongs to the route
 * segment whose forms post it and declares a schema for its input; nothing else is
 * deserialised. Ids come from the module and export name with a configured salt, so every build
 * and replica agrees on them.
 */
import { createHash } from 'node:crypto';
import type { z } from 'zod';

/** What an action handler can do besides returning a result. */
export interface ActionContext<Services> {
  readonly services: Services;
  /** Cache tags this action made stale (usually the tags the data service returned). */
  revalidate(...tags: readonly string[]): void;
  /** Navigate afterwards (303 for forms without JavaScript), to a path on this site only. */
  redirect(location: string): void;
}

/** An action's definition. */
export interface ActionDefinition<
  Services,
  Schema extends z.ZodType = z.ZodType,
  Result = unknown,
> {
  /** The module the action belongs to, e.g. "catalog/items". */
  readonly module: string;
  /** The export name, e.g. "createItem". */
  readonly name: string;
  /**
   * The id of the route segment it belongs to: that segment's components get its public id
   * with `useActionId(name)`.
   */
  readonly segment: string;
  readonly input: Schema;
  readonly handler: (
    input: z.output<Schema>,
    context: ActionContext<Services>,
  ) => Promise<ActionResult<Result>>;
}

/** What a handler returns: a result, or field errors to show next to the form. */
export type ActionResult<Result> =
  | { readonly ok: true; readonly result: Result }
  | { readonly ok: false; readonly fieldErrors: Readonly<Record<string, readonly string[]>> };

/** Declares an action (a typed identity function). */
export function defineAction<Services, Schema extends z.ZodType, Result>(
  definition: ActionDefinition<Services, Schema, Result>,
): ActionDefinition<Services, Schema, Result> {
  return definition;
}

/** The action's public id: 32 hex characters of SHA-256(salt, module, name). */
export function actionId(salt: string, action: { module: string; name: string }): string {
  return createHash('sha256')
    .update(`${salt}\u0000${action.module}\u0000${action.name}`)
    .digest('hex')
    .slice(0, 32);
}
