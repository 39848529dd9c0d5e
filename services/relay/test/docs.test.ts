/** docs/relay.md documents every variable and every error code the relay has, and no other code. */
import { describeConfig } from '@strata/config';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { RELAY_ERRORS, RelayConfigSchema } from '../src/index.js';

const doc = readFileSync(new URL('../../../docs/relay.md', import.meta.url), 'utf8');

describe('docs/relay.md', () => {
  it.each(describeConfig(RelayConfigSchema).map((v) => v.name))(
    'documents the variable %s',
    (name) => {
      expect(doc).toContain(`| \`${name}\` |`);
    },
  );

  it.each(Object.entries(RELAY_ERRORS))('documents the error %s as %i', (code, status) => {
    expect(doc).toContain(`| ${status} | \`${code}\` |`);
  });

  it('documents no error code the relay does not have', () => {
    const documented = [...doc.matchAll(/^\| \d{3} \| `(RELAY_[A-Z_]+)` \|/gm)].map((m) => m[1]);
    expect(documented.filter((code) => !((code as string) in RELAY_ERRORS))).toEqual([]);
  });
});
