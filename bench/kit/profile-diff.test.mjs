import { describe, expect, it } from 'vitest';
import { diffRows, profileDiffMarkdown } from './profile-diff.mjs';

const side = (requests, busyMs, groups, functions = []) => ({
  requests,
  summary: { busyMs, groups, functions },
});

const A = side(100, 55, [
  { name: 'React render', ms: 30 },
  { name: 'Fastify', ms: 10 },
  { name: 'pino', ms: 15 },
]);
const B = side(
  200,
  120,
  [
    { name: 'React render', ms: 60 },
    { name: 'Fastify', ms: 40 },
    { name: 'metrics', ms: 24 },
  ],
  [{ name: 'onRequest', file: 'services/render/dist/hooks.js:3', ms: 8 }],
);

describe('diffRows', () => {
  it('compares per request, so sides with different request counts line up', () => {
    const rows = diffRows(A, B, 'groups');
    expect(rows.find((row) => row.name === 'React render')).toEqual({
      name: 'React render',
      a: 0.3,
      b: 0.3,
      delta: 0,
    });
    expect(rows.find((row) => row.name === 'Fastify')?.delta).toBeCloseTo(0.1);
  });

  it('counts a row missing on one side as zero there', () => {
    const rows = diffRows(A, B, 'groups');
    expect(rows.find((row) => row.name === 'metrics')).toMatchObject({ a: 0, b: 0.12 });
    expect(rows.find((row) => row.name === 'pino')).toMatchObject({ a: 0.15, b: 0, delta: -0.15 });
  });

  it('puts the largest difference first, whichever its sign', () => {
    expect(diffRows(A, B, 'groups').map((row) => row.name)).toEqual([
      'pino',
      'metrics',
      'Fastify',
      'React render',
    ]);
  });

  it('names functions with their file', () => {
    expect(diffRows(A, B, 'functions')[0].name).toBe('`onRequest` services/render/dist/hooks.js:3');
  });
});

describe('profileDiffMarkdown', () => {
  it('says busy time per request on each side and leaves out views neither side has', () => {
    const text = profileDiffMarkdown('render', A, B);
    expect(text).toContain('A 0.5500 ms, B 0.6000 ms (B − A +0.0500 ms; 100 and 200 requests');
    expect(text).toContain('| Fastify | 0.1000 | 0.2000 | +0.1000 |');
    expect(text).toContain('| pino | 0.1500 | 0.0000 | −0.1500 |');
    expect(text).not.toContain('inclusive time of');
  });
});
