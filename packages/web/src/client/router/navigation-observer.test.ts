import { describe, expect, it } from 'vitest';
import { reportNavigationEffects, type NavigationObserver } from './navigation-observer.js';
import { initialRouterState, transition, type RouterState } from './transition.js';

function recorder(): { observer: NavigationObserver; log: string[] } {
  const log: string[] = [];
  return {
    log,
    observer: {
      started: ({ id, url }) => log.push(`start ${id} ${url}`),
      ended: ({ id, outcome }) => log.push(`end ${id} ${outcome}`),
    },
  };
}

function step(state: RouterState, event: Parameters<typeof transition>[1], to: NavigationObserver) {
  const next = transition(state, event);
  reportNavigationEffects(to, next.effects);
  return next.state;
}

describe('reportNavigationEffects', () => {
  const start = initialRouterState({ url: '/a', build: 'b1', root: 'shop' });

  it('reports a navigation another one overtakes', () => {
    const { observer, log } = recorder();
    let state = step(start, { type: 'navigate', url: '/slow', mode: 'push', now: 0 }, observer);
    state = step(state, { type: 'navigate', url: '/b', mode: 'push', now: 1 }, observer);
    expect(log).toEqual(['start 1 /slow', 'end 1 overtaken', 'start 2 /b']);
  });

  it('reports a navigation that falls back to a full page load', () => {
    const { observer, log } = recorder();
    let state = step(start, { type: 'navigate', url: '/account', mode: 'push', now: 0 }, observer);
    state = step(
      state,
      { type: 'loaded', id: 1, page: { build: 'b1', root: 'account' } },
      observer,
    );
    expect(log).toEqual(['start 1 /account', 'end 1 full-load']);
    expect(state.pending).toBeNull();
  });

  it('leaves the end of a committed navigation to the render (nothing reported at commit)', () => {
    const { observer, log } = recorder();
    let state = step(start, { type: 'navigate', url: '/b', mode: 'push', now: 0 }, observer);
    state = step(state, { type: 'loaded', id: 1, page: { build: 'b1', root: 'shop' } }, observer);
    expect(log).toEqual(['start 1 /b']);
    expect(state.url).toBe('/b');
  });
});
