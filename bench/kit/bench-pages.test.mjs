import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { benchPagesEnv, benchPagesSettings } from './bench-pages.mjs';

describe('the benchmark pages of a checkout', () => {
  it('are the bench app where the checkout has one', () => {
    expect(benchPagesSettings(true)).toEqual({ RENDER_APP: '@strata/app-bench' });
  });

  it('are the catalogue’s switch in an older checkout (a baseline)', () => {
    expect(benchPagesSettings(false)).toEqual({ RENDER_BENCH_PAGES: 'true' });
  });

  it('are the bench app in this checkout, the switch where apps/bench is missing', () => {
    const repository = fileURLToPath(new URL('../..', import.meta.url));
    expect(benchPagesEnv(repository)).toEqual({ RENDER_APP: '@strata/app-bench' });
    expect(benchPagesEnv(fileURLToPath(new URL('.', import.meta.url)))).toEqual({
      RENDER_BENCH_PAGES: 'true',
    });
  });
});
