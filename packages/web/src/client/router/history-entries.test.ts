import { describe, expect, it } from 'vitest';
import { createHistoryEntries } from './history-entries.js';
import type { Page } from './page.js';
import type { RouterEnvironment } from './router-interface.js';

const page = (url: string) => ({ url }) as Page;

/** History entries over a recording fake of the browser's history and scrolling. */
function setUp() {
  const calls: string[] = [];
  let scrollY = 0;
  let popState: (state: unknown) => void = () => undefined;
  const history: RouterEnvironment['history'] = {
    state: null,
    scrollRestoration: 'auto',
    back: () => undefined,
    pushState: (state, _title, url) => void calls.push(`push ${JSON.stringify(state)} ${url}`),
    replaceState: (state, _title, url) =>
      void calls.push(`replace ${JSON.stringify(state)} ${url}`),
  };
  const env = {
    history,
    location: { href: 'http://test/a' },
    scroll: (target: { top: number } | { hash: string }) =>
      void calls.push(`scroll ${JSON.stringify(target)}`),
    scrollY: () => scrollY,
    onPopState: (listener: (state: unknown) => void) => void (popState = listener),
  } as unknown as RouterEnvironment;
  const first = page('/a');
  const entries = createHistoryEntries(env, first);
  const shown: string[] = [];
  entries.onBackForward({
    restore: (kept) => void shown.push(`restore ${kept.url}`),
    load: () => void shown.push('load'),
  });
  return {
    entries,
    first,
    history,
    calls,
    shown,
    scrollTo: (y: number) => void (scrollY = y),
    pop: (state: unknown) => popState(state),
  };
}

describe('history entries', () => {
  it('takes over the current entry and turns the browser’s scroll restoration off', () => {
    const { history, calls } = setUp();
    expect(history.scrollRestoration).toBe('manual');
    expect(calls).toEqual(['replace {"strata":0} /a']);
  });

  it('scrolls a new entry to its hash or the top; a refresh or a pop does not scroll', () => {
    const { entries, calls } = setUp();
    entries.enter(page('/b'), '/b', 'push');
    entries.enter(page('/b'), '/b#part', 'replace');
    entries.enter(page('/b'), '/b', 'refresh');
    entries.enter(page('/c'), '/c', 'pop');
    expect(calls.slice(1)).toEqual([
      'push {"strata":1} /b',
      'scroll {"top":0}',
      'replace {"strata":1} /b#part',
      'scroll {"hash":"#part"}',
      'replace {"strata":1} /b',
    ]);
  });

  it('goes back to the page kept for an entry, at the scroll position it was left at', () => {
    const { entries, first, calls, shown, scrollTo, pop } = setUp();
    scrollTo(300);
    entries.remember(first);
    entries.enter(page('/b'), '/b', 'push');

    pop({ strata: 0 });

    expect(shown).toEqual(['restore /a']);
    expect(calls.at(-1)).toBe('scroll {"top":300}');
    // The next entry follows the one gone back to.
    entries.enter(page('/c'), '/c', 'push');
    expect(calls.at(-2)).toBe('push {"strata":1} /c');
  });

  it('loads an entry it keeps no page for', () => {
    const { shown, pop } = setUp();
    pop({ strata: 7 });
    pop(null);
    expect(shown).toEqual(['load', 'load']);
  });
});
