/**
 * The flags npm writes on lockfile entries (`dev`, `optional`, `devOptional`, `peer`), computed
 * from the dependency edges between entries, as npm's own calculation does. Pure.
 */
/** How an entry depends on another: the root's devDependencies are its only `dev` edges. */
export type EdgeType = 'prod' | 'dev' | 'optional' | 'peer';

export interface Flags {
  dev: boolean;
  optional: boolean;
  devOptional: boolean;
  peer: boolean;
}

const FLAG_FIELDS = ['dev', 'optional', 'devOptional', 'peer'] as const;

/**
 * npm's dependency flags: a package is `dev` (or `optional`, `peer`) when every path from the
 * app to it passes a dev (optional, peer) edge, `devOptional` when every path passes one or the
 * other. Starts with every flag set and clears them along the paths from the root.
 */
export function dependencyFlags(
  edges: ReadonlyMap<string, readonly { to: string; type: EdgeType }[]>,
): Map<string, Flags> {
  const flags = new Map<string, Flags>();
  for (const path of edges.keys())
    flags.set(path, { dev: true, optional: true, devOptional: true, peer: true });
  flags.set('', { dev: false, optional: false, devOptional: false, peer: false });
  const queue = [''];
  while (queue.length > 0) {
    const path = queue.shift()!;
    const from = flags.get(path)!;
    for (const { to, type } of edges.get(path) ?? []) {
      const reached: Flags = {
        dev: from.dev || type === 'dev',
        optional: from.optional || type === 'optional',
        devOptional: from.devOptional || type === 'dev' || type === 'optional',
        peer: from.peer || type === 'peer',
      };
      const current = flags.get(to)!;
      const cleared = FLAG_FIELDS.filter((flag) => current[flag] && !reached[flag]);
      if (cleared.length === 0) continue;
      for (const flag of cleared) current[flag] = false;
      queue.push(to);
    }
  }
  return flags;
}

/** The entry with its flags replaced by `flags` (none for the root). */
export function withFlags(
  entry: Readonly<Record<string, unknown>>,
  flags: Flags | undefined,
): Record<string, unknown> {
  const copy: Record<string, unknown> = { ...entry };
  for (const flag of FLAG_FIELDS) delete copy[flag];
  if (!flags) return copy;
  if (flags.dev) copy['dev'] = true;
  if (flags.optional) copy['optional'] = true;
  if (flags.devOptional && !flags.dev && !flags.optional) copy['devOptional'] = true;
  if (flags.peer) copy['peer'] = true;
  return copy;
}
