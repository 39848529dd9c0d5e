import { describe, expect, it } from 'vitest';
import { profileMarkdown, shortFile, summariseProfile } from './profile-summary.mjs';

const frame = (functionName, url, lineNumber = 0) => ({ functionName, url, lineNumber });
// root → renderPage (render service) → renderElement (react-dom); root → (idle); root → (garbage collector)
const PROFILE = {
  startTime: 1000,
  nodes: [
    { id: 1, callFrame: frame('(root)', ''), children: [2, 4, 5] },
    {
      id: 2,
      callFrame: frame('renderPage', 'file:///srv/x/services/render/dist/page.js', 9),
      children: [3],
    },
    {
      id: 3,
      callFrame: frame('renderElement', 'file:///srv/x/node_modules/react-dom/cjs/server.js', 99),
    },
    { id: 4, callFrame: frame('(idle)', '') },
    { id: 5, callFrame: frame('(garbage collector)', '') },
  ],
  // Each sample stands for the gap to the next one: 3 → 300 µs, 3 → 100, 2 → 100, 4 → 500, 5 → 200, 3 → 200 (last: its own).
  samples: [3, 3, 2, 4, 5, 3],
  timeDeltas: [0, 300, 100, 100, 500, 200],
};

describe('summariseProfile', () => {
  const summary = summariseProfile(PROFILE);

  it('adds self time by group, leaving idle out of busy', () => {
    expect(summary.wallMs).toBeCloseTo(1.4);
    expect(summary.idleMs).toBeCloseTo(0.5);
    expect(summary.busyMs).toBeCloseTo(0.9);
    expect(summary.groups.map((g) => [g.name, g.ms])).toEqual([
      ['React render (react-dom/server)', 0.6],
      ['GC', 0.2],
      ['render service', 0.1],
    ]);
    expect(summary.groups[0].share).toBeCloseTo(2 / 3);
  });

  it('names functions and files without the machine’s paths', () => {
    expect(summary.functions[0]).toMatchObject({
      name: 'renderElement',
      file: 'react-dom/cjs/server.js:100',
      group: 'React render (react-dom/server)',
    });
    expect(summary.files.map((f) => f.file)).toContain('services/render/dist/page.js');
  });

  it('counts only samples inside the window', () => {
    // Sample times: 1000, 1300, 1400, 1500, 2000, 2200.
    const windowed = summariseProfile(PROFILE, { fromUs: 1350, toUs: 1450 });
    expect(windowed.groups).toEqual([
      expect.objectContaining({ name: 'render service', ms: 0.1, share: 1 }),
    ]);
  });

  it('counts samples inside any of several windows, and none between them', () => {
    // 1300 (react 100 µs) and 2000 (GC 200 µs) are inside; 1400 and 1500 fall between.
    const windowed = summariseProfile(PROFILE, {
      windows: [
        [1250, 1350],
        [1900, 2100],
      ],
    });
    expect(windowed.groups.map((g) => [g.name, g.ms])).toEqual([
      ['GC', 0.2],
      ['React render (react-dom/server)', 0.1],
    ]);
  });

  it('takes other groups when given', () => {
    const mine = summariseProfile(PROFILE, { groups: [['everything', () => true]] });
    expect(mine.groups.map((g) => g.name)).toEqual(['everything']);
  });
});

describe('summariseProfile by call stack', () => {
  // renderElement (react-dom) and renderPage (render service) both sit under renderPage.
  it('gives each stack the first stage, in the list’s order, marked anywhere in it', () => {
    const { stages } = summariseProfile(PROFILE, {
      stages: [
        ['page', /^renderPage@/],
        ['react', /react-dom/],
      ],
    });
    // renderElement's stack holds renderPage, and 'page' comes first in the list.
    expect(stages.map((s) => [s.name, s.ms])).toEqual([
      ['page', 0.7],
      ['other', 0.2],
    ]);
    const reversed = summariseProfile(PROFILE, {
      stages: [
        ['react', /react-dom/],
        ['page', /^renderPage@/],
      ],
    }).stages;
    expect(reversed.map((s) => [s.name, s.ms])).toEqual([
      ['react', 0.6],
      ['other', 0.2],
      ['page', 0.1],
    ]);
  });

  it('charges time of groups that own nothing to the nearest caller that does', () => {
    const { attributed } = summariseProfile(PROFILE, {
      notOwners: ['React render (react-dom/server)'],
    });
    expect(attributed.map((s) => [s.name, s.ms])).toEqual([
      ['render service', 0.7],
      ['GC', 0.2],
    ]);
  });

  it('adds the inclusive time of chosen functions once per sample', () => {
    const { inclusive } = summariseProfile(PROFILE, {
      inclusive: [
        { label: 'page', name: 'renderPage', url: /services/ },
        { label: 'wrong file', name: 'renderPage', url: /react-dom/ },
      ],
    });
    expect(inclusive.map((s) => [s.name, s.ms])).toEqual([['page', 0.7]]);
  });

  it('leaves the stack views out unless asked', () => {
    const summary = summariseProfile(PROFILE);
    expect(summary).not.toHaveProperty('stages');
    expect(summary).not.toHaveProperty('attributed');
    expect(summary).not.toHaveProperty('inclusive');
  });
});

describe('shortFile', () => {
  it('keeps a package path from node_modules or the repository folder', () => {
    expect(shortFile('file:///a/b/node_modules/x/node_modules/fastify/lib/reply.js')).toBe(
      'fastify/lib/reply.js',
    );
    expect(shortFile('file:///home/me/strata/services/relay/dist/main.js')).toBe(
      'services/relay/dist/main.js',
    );
    expect(shortFile('node:internal/streams/writable')).toBe('node:internal/streams/writable');
    expect(shortFile('')).toBe('(builtin)');
  });
});

describe('profileMarkdown', () => {
  it('adds a per-request column when the requests are known', () => {
    const text = profileMarkdown('p', summariseProfile(PROFILE), { requests: 10 });
    expect(text).toContain('| group (self time) | ms | % of busy | ms/req |');
    expect(text).toContain('| React render (react-dom/server) | 0.6 | 66.7 | 0.0600 |');
    expect(profileMarkdown('p', summariseProfile(PROFILE))).not.toContain('ms/req');
  });
});
