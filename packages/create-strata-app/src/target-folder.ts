/**
 * The folder a new app is written to: missing or empty, nothing else, so nothing of the user's
 * is ever overwritten.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';

/** Why `target` cannot take a new app, or undefined when it can. */
export function targetProblem(target: string): string | undefined {
  if (!existsSync(target)) return undefined;
  if (!statSync(target).isDirectory()) return `${target} exists and is not a folder`;
  const entries = readdirSync(target);
  if (entries.length === 0) return undefined;
  const shown = entries.slice(0, 3).join(', ') + (entries.length > 3 ? ', …' : '');
  return `${target} is not empty (${shown}): choose a new or empty folder`;
}
