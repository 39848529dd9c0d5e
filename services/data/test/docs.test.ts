import { describeConfig } from '@strata/config';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DataConfigSchema, DATA_ERROR_STATUS } from '../src/index.js';

const doc = readFileSync(new URL('../../../docs/data-service.md', import.meta.url), 'utf8');

describe('docs/data-service.md', () => {
  it.each(describeConfig(DataConfigSchema).map((v) => v.name))(
    'documents the variable %s',
    (name) => {
      expect(doc).toContain(`| \`${name}\` |`);
    },
  );

  it.each(Object.keys(DATA_ERROR_STATUS))('documents the error %s', (code) => {
    expect(doc).toContain(`| \`${code}\` |`);
  });
});
