import { describe, expect, it } from 'vitest';
import { appManifestProblems } from './app-folder.js';
import { serverEntries } from './compile-server.js';

describe('appManifestProblems', () => {
  it('accepts a package exporting the app and its client', () => {
    expect(appManifestProblems({ name: 'my-app', exports: { '.': 'a', './client': 'b' } })).toEqual(
      [],
    );
  });

  it('names what is missing', () => {
    expect(appManifestProblems({ exports: { '.': 'a' } })).toEqual([
      'it has no "name"',
      'its "exports" has no "./client"',
    ]);
    expect(appManifestProblems([])).toContain('its "exports" has no "."');
    expect(appManifestProblems(null)).toEqual(['it is not a JSON object']);
  });
});

describe('serverEntries', () => {
  it('compiles code, not tests, declarations or other files', () => {
    expect(
      serverEntries([
        'index.ts',
        'pages/home.tsx',
        'pages/home.test.tsx',
        '__tests__/x.ts',
        'types.d.ts',
        'data.json',
        'legacy.js',
      ]),
    ).toEqual(['index.ts', 'legacy.js', 'pages/home.tsx']);
  });
});
