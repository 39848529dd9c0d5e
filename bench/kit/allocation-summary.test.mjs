import { describe, expect, it } from 'vitest';
import {
  allocationDiffMarkdown,
  allocationDiffRows,
  summariseAllocations,
} from './allocation-summary.mjs';

const frame = (functionName, url, lineNumber = 0) => ({ functionName, url, lineNumber });

// root → handler (render service) → JSON.stringify (builtin) ; root → readItem (generated codec)
const profile = {
  head: {
    id: 1,
    callFrame: frame('(root)', ''),
    selfSize: 0,
    children: [
      {
        id: 2,
        callFrame: frame('handler', 'file:///repo/services/render/dist/page.js', 9),
        selfSize: 1000,
        children: [{ id: 3, callFrame: frame('stringify', ''), selfSize: 3000, children: [] }],
      },
      {
        id: 4,
        callFrame: frame('readItem', 'file:///repo/proto/dist/gen/catalog.js', 4),
        selfSize: 500,
        children: [],
      },
    ],
  },
};

describe('summariseAllocations', () => {
  const summary = summariseAllocations(profile, {
    notOwners: ['builtins (JSON, RegExp, String …)'],
  });

  it('adds every node’s own bytes', () => {
    expect(summary.totalBytes).toBe(4500);
  });

  it('sums bytes by the group that allocated them, largest first', () => {
    expect(summary.groups).toEqual([
      { name: 'builtins (JSON, RegExp, String …)', bytes: 3000 },
      { name: 'render service', bytes: 1000 },
      { name: 'protobuf codecs (generated)', bytes: 500 },
    ]);
  });

  it('charges a builtin’s allocations to the nearest caller that owns them', () => {
    expect(summary.attributed).toEqual([
      { name: 'render service', bytes: 4000 },
      { name: 'protobuf codecs (generated)', bytes: 500 },
    ]);
  });

  it('names functions by their file and line, without the machine’s path', () => {
    expect(summary.functions).toContainEqual({
      name: 'handler',
      file: 'services/render/dist/page.js:10',
      bytes: 1000,
    });
    expect(summary.functions).toContainEqual({ name: 'stringify', file: '(builtin)', bytes: 3000 });
  });
});

describe('allocationDiffRows and allocationDiffMarkdown', () => {
  const a = { summary: summariseAllocations(profile), requests: 10 };
  const doubled = structuredClone(profile);
  doubled.head.children[1].selfSize = 2500;
  const b = { summary: summariseAllocations(doubled), requests: 10 };

  it('compares bytes per request, the largest change first', () => {
    const [first] = allocationDiffRows(a, b, 'groups');
    expect(first).toEqual({ name: 'protobuf codecs (generated)', a: 50, b: 250, delta: 200 });
  });

  it('reports KB per request on each side and the difference', () => {
    const markdown = allocationDiffMarkdown('render service', a, b);
    expect(markdown).toContain('Allocated per request: A 0.44 KB, B 0.63 KB (B − A +0.20 KB');
    expect(markdown).toContain('| protobuf codecs (generated) | 0.05 | 0.24 | +0.20 |');
  });
});
