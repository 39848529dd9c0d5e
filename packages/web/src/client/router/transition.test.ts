import { describe, expect, it } from 'vitest';
import {
  initialRouterState,
  transition,
  type RouterEvent,
  type RouterState,
} from './transition.js';

const start = initialRouterState({ url: '/a', build: 'b1', root: 'shop' });

function run(events: RouterEvent[], state: RouterState = start) {
  const effects: string[] = [];
  for (const event of events) {
    const next = transition(state, event);
    state = next.state;
    effects.push(
      ...next.effects.map(
        (e) => `${e.type}${'id' in e ? `#${e.id}` : ''}${'reason' in e ? `:${e.reason}` : ''}`,
      ),
    );
  }
  return { state, effects };
}

describe('navigation state machine', () => {
  it(`
      A) navigate /b |----- loaded --> commit
    `, () => {
    const { state, effects } = run([
      { type: 'navigate', url: '/b', mode: 'push', now: 0 },
      { type: 'loaded', id: 1, page: { build: 'b1', root: 'shop' } },
    ]);
    expect(effects).toEqual(['load#1', 'start-timer#1', 'cancel-timer#1', 'commit#1']);
    expect(state.url).toBe('/b');
    expect(state.pending).toBeNull();
  });

  it(`
      A) navigate /b |------------ loaded (dropped)
      B) navigate /c      |--- loaded --> commit /c
    `, () => {
    const { state, effects } = run([
      { type: 'navigate', url: '/b', mode: 'push', now: 0 },
      { type: 'navigate', url: '/c', mode: 'push', now: 10 },
      { type: 'loaded', id: 2, page: { build: 'b1', root: 'shop' } },
      { type: 'loaded', id: 1, page: { build: 'b1', root: 'shop' } },
    ]);
    expect(effects).toEqual([
      'load#1',
      'start-timer#1',
      'abandon#1',
      'cancel-timer#1',
      'load#2',
      'start-timer#2',
      'cancel-timer#2',
      'commit#2',
    ]);
    expect(state.url).toBe('/c');
  });

  it(`
      A) navigate /slow |---- 3800 ms ----X timeout --> full page load
    `, () => {
    const { effects } = run([
      { type: 'navigate', url: '/slow', mode: 'push', now: 0 },
      { type: 'timeout', id: 1 },
      { type: 'loaded', id: 1, page: { build: 'b1', root: 'shop' } },
    ]);
    expect(effects.slice(2)).toEqual(['cancel-timer#1', 'abandon#1', 'hard-navigate:timeout']);
  });

  it.each([
    [{ build: 'b2', root: 'shop' }, 'hard-navigate:build-changed'],
    [{ build: 'b1', root: 'account' }, 'hard-navigate:root-changed'],
  ])('falls back to a full load when the answer is %j', (page, expected) => {
    const { effects } = run([
      { type: 'navigate', url: '/x', mode: 'push', now: 0 },
      { type: 'loaded', id: 1, page },
    ]);
    expect(effects.at(-1)).toBe(expected);
  });

  it('turns a failed fetch into a full load of the target, and ignores failures of overtaken navigations', () => {
    const { effects } = run([
      { type: 'navigate', url: '/x', mode: 'replace', now: 0 },
      { type: 'navigate', url: '/y', mode: 'push', now: 1 },
      { type: 'failed', id: 1, reason: 'fetch-failed' },
      { type: 'failed', id: 2, reason: 'not-ok' },
    ]);
    expect(effects.filter((e) => e.startsWith('hard'))).toEqual(['hard-navigate:not-ok']);
  });

  it(`
      A) navigate /b |--- back to a kept /a ---- loaded (ignored), timeout (ignored)
    `, () => {
    const { state, effects } = run([
      { type: 'navigate', url: '/b', mode: 'push', now: 0 },
      { type: 'restored', url: '/a' },
      { type: 'loaded', id: 1, page: { build: 'b1', root: 'shop' } },
      { type: 'timeout', id: 1 },
    ]);
    expect(effects).toEqual(['load#1', 'start-timer#1', 'abandon#1', 'cancel-timer#1']);
    expect(state).toEqual({ ...start, url: '/a', lastId: 1 });
  });
});
