/**
 * The package.json of a new app: its name from the folder's, the scripts that run `strata`, the
 * platform packages (registry versions, or `file:` tarballs with --packs) and the libraries the
 * template uses, at the versions this release is tested with. Pure.
 */

/** What the template's code imports at run time, besides the platform. */
export const RUNTIME_DEPENDENCIES = {
  react: '19.3.1',
  'react-dom': '19.3.1',
  zod: '4.6.7',
} as const;

/** What its type checking and tests use. */
export const DEV_DEPENDENCIES = {
  '@types/node': '26.6.7',
  '@types/react': '19.3.3',
  '@types/react-dom': '19.3.0',
  typescript: '7.0.2',
  vitest: '5.1.1',
} as const;

/** The platform packages an app depends on directly. */
export const PLATFORM_PACKAGES = ['@strata/render', '@strata/web'] as const;

/** An npm package name made from a folder name: lowercase letters, digits and dashes. */
export function packageNameOf(folderName: string): string {
  const name = folderName
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return name === '' ? 'strata-app' : name;
}

/**
 * The platform dependencies: `^<version>` of each, or with local tarballs (`packs`: package name
 * → path relative to the app) every tarball's package, so npm never asks a registry for one.
 */
export function platformDependencies(
  version: string,
  packs: ReadonlyMap<string, string> | undefined,
): Record<string, string> {
  if (!packs) return Object.fromEntries(PLATFORM_PACKAGES.map((name) => [name, `^${version}`]));
  const missing = PLATFORM_PACKAGES.filter((name) => !packs.has(name));
  if (missing.length > 0)
    throw new Error(`no tarball of ${missing.join(', ')} in the packs folder`);
  return Object.fromEntries([...packs].map(([name, path]) => [name, `file:${path}`]));
}

/** The whole manifest. */
export function appManifest(name: string, platform: Record<string, string>): object {
  return {
    name,
    version: '0.1.0',
    private: true,
    type: 'module',
    exports: { '.': './dist/index.js', './client': './dist/client.js' },
    scripts: {
      dev: 'strata dev',
      build: 'strata build',
      start: 'strata start',
      test: 'vitest run',
      typecheck: 'tsc',
    },
    dependencies: sorted({ ...platform, ...RUNTIME_DEPENDENCIES }),
    devDependencies: { ...DEV_DEPENDENCIES },
    // Neither needs its install script: esbuild's binary comes as an optional dependency,
    // protobufjs's script only prints a notice.
    allowScripts: { esbuild: false, protobufjs: false },
  };
}

function sorted(record: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => a.localeCompare(b)));
}
