import { describeConfig } from '@strata/config';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { RenderConfigSchema } from '../src/index.js';

const doc = readFileSync(new URL('../../../docs/render-service.md', import.meta.url), 'utf8');

describe('docs/render-service.md', () => {
  it.each(describeConfig(RenderConfigSchema).map((v) => v.name))(
    'documents the variable %s',
    (name) => {
      expect(doc).toContain(`| \`${name}\` |`);
    },
  );
});
