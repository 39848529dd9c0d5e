import { describe, expect, it } from 'vitest';
import {
  offlineLockfile,
  type AppManifest,
  type LocalTarball,
  type Lockfile,
} from './harness/offline-lockfile.js';

// A repository: a root with dev tools, the workspace @strata/web (one nested dependency of its
// own), and a tool the app never uses.
const REPOSITORY: Lockfile = {
  name: 'strata',
  lockfileVersion: 3,
  requires: true,
  packages: {
    '': { name: 'strata', devDependencies: { vitest: '5.1.1', oxlint: '1.94.0' } },
    'node_modules/@strata/web': { resolved: 'packages/web', link: true },
    'packages/web': {
      name: '@strata/web',
      version: '0.1.0',
      dependencies: { react: '19.3.1', undici: '7.0.0' },
      devDependencies: { oxlint: '1.94.0' },
    },
    'packages/web/node_modules/undici': { version: '7.0.0', integrity: 'sha512-u7' },
    'node_modules/undici': { version: '6.0.0', integrity: 'sha512-u6', dev: true },
    'node_modules/react': { version: '19.3.1', integrity: 'sha512-r', license: 'MIT' },
    'node_modules/vitest': {
      version: '5.1.1',
      integrity: 'sha512-v',
      dev: true,
      dependencies: { tinyexec: '^1.0.0' },
      optionalDependencies: { fsevents: '2.3.3', 'not-locked': '1.0.0' },
      peerDependencies: { vite: '^8.0.0', jsdom: '*' },
      peerDependenciesMeta: { jsdom: { optional: true } },
    },
    'node_modules/tinyexec': { version: '1.3.1', integrity: 'sha512-t', dev: true },
    'node_modules/fsevents': { version: '2.3.3', integrity: 'sha512-f', os: ['darwin'] },
    'node_modules/vite': { version: '8.0.0', integrity: 'sha512-vi', dependencies: { react: '*' } },
    'node_modules/jsdom': { version: '27.0.0', integrity: 'sha512-j', dev: true },
    'node_modules/@types/react': { version: '19.3.0', integrity: 'sha512-tr', dev: true },
    'node_modules/oxlint': { version: '1.94.0', integrity: 'sha512-o', dev: true },
  },
};

const WEB: LocalTarball = {
  manifest: {
    name: '@strata/web',
    version: '0.1.0',
    license: 'Apache-2.0',
    dependencies: { react: '19.3.1', undici: '7.0.0' },
    devDependencies: { oxlint: '1.94.0' },
    bin: { 'strata-bundle-client': './bin/strata-bundle-client.mjs' },
  },
  resolved: 'file:packs/strata-web-0.1.0.tgz',
  integrity: 'sha512-web',
};

const APP: AppManifest = {
  name: 'my-app',
  version: '0.1.0',
  dependencies: { '@strata/web': 'file:packs/strata-web-0.1.0.tgz', react: '19.3.1' },
  devDependencies: { vitest: '5.1.1' },
};

const derive = (app = APP) => offlineLockfile(REPOSITORY, app, new Map([['@strata/web', WEB]]));

describe('offlineLockfile', () => {
  it('holds the closure of the app’s dependencies, dev ones included, and nothing else', () => {
    expect(Object.keys(derive().packages)).toEqual([
      '',
      'node_modules/@strata/web',
      'node_modules/@strata/web/node_modules/undici',
      'node_modules/fsevents',
      'node_modules/react',
      'node_modules/tinyexec',
      'node_modules/vite',
      'node_modules/vitest',
    ]);
  });

  it('has a root entry matching the app’s package.json', () => {
    expect(derive().packages['']).toEqual({
      name: 'my-app',
      version: '0.1.0',
      dependencies: APP.dependencies,
      devDependencies: APP.devDependencies,
    });
  });

  it('has a platform package as its tarball, with its nested dependency moved beside it', () => {
    const { packages } = derive();
    expect(packages['node_modules/@strata/web']).toEqual({
      version: '0.1.0',
      resolved: 'file:packs/strata-web-0.1.0.tgz',
      integrity: 'sha512-web',
      license: 'Apache-2.0',
      dependencies: { react: '19.3.1', undici: '7.0.0' },
      bin: { 'strata-bundle-client': 'bin/strata-bundle-client.mjs' },
    });
    expect(packages['node_modules/@strata/web/node_modules/undici']).toEqual({
      version: '7.0.0',
      resolved: 'https://registry.npmjs.org/undici/-/undici-7.0.0.tgz',
      integrity: 'sha512-u7',
    });
  });

  it('keeps a registry package’s entry and computes its flags for the app', () => {
    const { packages } = derive();
    expect(packages['node_modules/react']).toEqual({
      version: '19.3.1',
      resolved: 'https://registry.npmjs.org/react/-/react-19.3.1.tgz',
      integrity: 'sha512-r',
      license: 'MIT',
    });
    expect(packages['node_modules/tinyexec']).toMatchObject({ dev: true });
    expect(packages['node_modules/vite']).toMatchObject({ dev: true, peer: true });
    expect(packages['node_modules/fsevents']).toMatchObject({ dev: true, optional: true });
  });

  // The repository's lockfile has no URLs (omit-lockfile-registry-resolved): without one, npm
  // asks the registry for the package's metadata.
  it('names a registry package’s tarball, scoped ones too', () => {
    const app = { ...APP, devDependencies: { '@types/react': '19.3.0' } };
    expect(derive(app).packages['node_modules/@types/react']).toMatchObject({
      resolved: 'https://registry.npmjs.org/@types/react/-/react-19.3.0.tgz',
      dev: true,
    });
  });

  it('marks devOptional what only dev or only optional paths reach', () => {
    const app = { ...APP, dependencies: { ...APP.dependencies, fsevents: '2.3.3' } };
    const optionalOnly = offlineLockfile(
      {
        ...REPOSITORY,
        packages: {
          ...REPOSITORY.packages,
          'node_modules/react': { version: '19.3.1', optionalDependencies: { tinyexec: '1' } },
        },
      },
      APP,
      new Map([['@strata/web', WEB]]),
    );
    expect(optionalOnly.packages['node_modules/tinyexec']).toEqual({
      version: '1.3.1',
      resolved: 'https://registry.npmjs.org/tinyexec/-/tinyexec-1.3.1.tgz',
      integrity: 'sha512-t',
      devOptional: true,
    });
    expect(derive(app).packages['node_modules/fsevents']).not.toHaveProperty('optional');
  });

  it('refuses a version the repository does not lock, and a missing dependency', () => {
    expect(() => derive({ ...APP, devDependencies: { vitest: '5.2.0' } })).toThrow(
      'the app asks vitest@5.2.0; the repository locks 5.1.1',
    );
    expect(() => derive({ ...APP, devDependencies: { prettier: '3.10.1' } })).toThrow(
      "my-app needs prettier, absent from the repository's lockfile",
    );
  });
});
