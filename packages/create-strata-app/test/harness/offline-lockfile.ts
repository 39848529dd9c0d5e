/**
 * A package-lock.json for an app scaffolded from the tarballs, derived from the repository's:
 * every registry package the app needs is an entry the repository's lockfile holds (same path,
 * version and integrity, so `npm ci` fetched it into npm's cache), and each `@strata/*` package
 * is its local tarball. With it, `npm ci --offline` installs the app from that cache and never
 * asks a registry for metadata. Test tooling: a user's app resolves from the registry. Pure.
 */
import { dependencyFlags, withFlags, type EdgeType } from './dependency-flags.js';

/** One `packages` entry of a lockfile (version 3). */
export interface LockEntry {
  readonly name?: string;
  readonly version?: string;
  readonly resolved?: string;
  readonly integrity?: string;
  readonly link?: boolean;
  readonly dependencies?: Readonly<Record<string, string>>;
  readonly devDependencies?: Readonly<Record<string, string>>;
  readonly optionalDependencies?: Readonly<Record<string, string>>;
  readonly peerDependencies?: Readonly<Record<string, string>>;
  readonly peerDependenciesMeta?: Readonly<Record<string, { optional?: boolean }>>;
  readonly [field: string]: unknown;
}

export interface Lockfile {
  readonly name?: string;
  readonly version?: string;
  readonly lockfileVersion: number;
  readonly requires?: boolean;
  readonly packages: Readonly<Record<string, LockEntry>>;
}

/** A platform tarball: its package.json, where the app has it and its sha512 integrity. */
export interface LocalTarball {
  readonly manifest: LockEntry & { readonly name: string; readonly version: string };
  /** `file:packs/strata-web-0.1.0.tgz`, as the app's package.json names it. */
  readonly resolved: string;
  readonly integrity: string;
}

/** What the derivation reads of the app's package.json. */
export interface AppManifest {
  readonly name: string;
  readonly version: string;
  readonly dependencies?: Readonly<Record<string, string>>;
  readonly devDependencies?: Readonly<Record<string, string>>;
}

// What a tarball's package.json contributes to its entry, as npm writes it.
const TARBALL_FIELDS = [
  'license',
  'dependencies',
  'optionalDependencies',
  'peerDependencies',
  'peerDependenciesMeta',
  'bin',
  'engines',
] as const;

export function offlineLockfile(
  repository: Lockfile,
  app: AppManifest,
  tarballs: ReadonlyMap<string, LocalTarball>,
): Lockfile {
  const packages = repository.packages;
  // Workspace folder of each tarball's package: its nested node_modules move under the app's copy.
  const workspaceOf = new Map<string, string>();
  for (const [path, entry] of Object.entries(packages))
    if (entry.name && tarballs.has(entry.name) && !path.includes('node_modules/'))
      workspaceOf.set(`node_modules/${entry.name}`, path);
  const toApp = (repoPath: string): string => {
    for (const [appPath, folder] of workspaceOf)
      if (repoPath.startsWith(`${folder}/`)) return appPath + repoPath.slice(folder.length);
    return repoPath;
  };

  const root: LockEntry = {
    name: app.name,
    version: app.version,
    ...(app.dependencies && { dependencies: app.dependencies }),
    ...(app.devDependencies && { devDependencies: app.devDependencies }),
  };
  const entries = new Map<string, LockEntry>([['', root]]);
  const repoPathOf = new Map<string, string>([['', '']]);
  const edges = new Map<string, { to: string; type: EdgeType }[]>();
  const pending = [''];

  while (pending.length > 0) {
    const path = pending.pop()!;
    const entry = entries.get(path)!;
    const out: { to: string; type: EdgeType }[] = [];
    edges.set(path, out);
    for (const [name, type, spec] of dependencyEdges(entry, path === '')) {
      const to = tarballs.has(name)
        ? `node_modules/${name}`
        : resolveIn(packages, repoPathOf.get(path)!, name);
      if (to === undefined) {
        if (type === 'optional') continue;
        throw new Error(`${path || app.name} needs ${name}, absent from the repository's lockfile`);
      }
      const appPath = toApp(to);
      if (!entries.has(appPath)) {
        const tarball = tarballs.get(name);
        const found = tarball ? tarballEntry(tarball) : registryEntry(packages[to]!, to);
        if (found.link) throw new Error(`${name} is a workspace of the repository, not a tarball`);
        if (path === '' && /^\d+\.\d+\.\d+/.test(spec) && found.version !== spec)
          throw new Error(`the app asks ${name}@${spec}; the repository locks ${found.version}`);
        entries.set(appPath, found);
        repoPathOf.set(appPath, tarball ? workspaceOf.get(appPath)! : to);
        pending.push(appPath);
      }
      out.push({ to: appPath, type });
    }
  }

  // Computed for the app, not copied: the repository's flags say nothing of the app's roots.
  const flags = dependencyFlags(edges);
  const sortedPaths = [...entries.keys()].sort((a, b) => a.localeCompare(b, 'en'));
  return {
    name: app.name,
    version: app.version,
    lockfileVersion: 3,
    requires: true,
    packages: Object.fromEntries(
      sortedPaths.map((path) => [path, withFlags(entries.get(path)!, flags.get(path))]),
    ),
  };
}

/** [name, edge type, spec] of an entry's dependencies; optional peers are left out, as npm does. */
function dependencyEdges(entry: LockEntry, isRoot: boolean): [string, EdgeType, string][] {
  const list = (record: Readonly<Record<string, string>> | undefined, type: EdgeType) =>
    Object.entries(record ?? {}).map(([name, spec]): [string, EdgeType, string] => [
      name,
      type,
      spec,
    ]);
  return [
    ...list(entry.dependencies, 'prod'),
    ...list(entry.optionalDependencies, 'optional'),
    ...(isRoot ? list(entry.devDependencies, 'dev') : []),
    ...list(entry.peerDependencies, 'peer').filter(
      ([name]) => !entry.peerDependenciesMeta?.[name]?.optional,
    ),
  ];
}

/** Node's resolution over lockfile paths: `<folder>/node_modules/<name>`, up to the root. */
function resolveIn(
  packages: Readonly<Record<string, LockEntry>>,
  from: string,
  name: string,
): string | undefined {
  for (let folder = from; ; folder = folder.slice(0, Math.max(0, folder.lastIndexOf('/')))) {
    const candidate = folder === '' ? `node_modules/${name}` : `${folder}/node_modules/${name}`;
    if (packages[candidate]) return candidate;
    if (folder === '') return undefined;
  }
}

// The repository's .npmrc leaves registry URLs out of its lockfile
// (omit-lockfile-registry-resolved); without one, npm fetches the package's metadata to find
// its tarball.
const REGISTRY = 'https://registry.npmjs.org';

/** A registry package's entry with its tarball's URL (npm maps the host to the configured one). */
function registryEntry(entry: LockEntry, path: string): LockEntry {
  if (entry.resolved || entry.link) return entry;
  const name = entry.name ?? path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length);
  const file = `${name.slice(name.indexOf('/') + 1)}-${entry.version}.tgz`;
  return { ...entry, resolved: `${REGISTRY}/${name}/-/${file}` };
}

function tarballEntry({ manifest, resolved, integrity }: LocalTarball): LockEntry {
  const entry: Record<string, unknown> = { version: manifest.version, resolved, integrity };
  for (const field of TARBALL_FIELDS)
    if (manifest[field] !== undefined) entry[field] = manifest[field];
  // npm records bin targets without a leading `./`.
  if (manifest['bin'] && typeof manifest['bin'] === 'object')
    entry['bin'] = Object.fromEntries(
      Object.entries(manifest['bin']).map(([name, target]) => [
        name,
        String(target).replace(/^\.\//, ''),
      ]),
    );
  return entry;
}
