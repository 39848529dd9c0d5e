/**
 * Rendering ahead of a click. When the user shows intent to follow a link (pointer over it,
 * touch) and its prefetched answer has fully arrived, the router builds the page that
 * navigation would commit. React renders it hidden beside the current page (an `<Activity
 * mode="hidden">`: no effects run, idle priority), and the navigation commits that same page
 * object, so React only has to reveal it. One page at most is held; it counts only while the
 * page it was built on is still the current one and the navigation uses the same answer.
 */
import type { RouteTable } from '../../routes/route-table.js';
import { readyNow, type ReadyAnswer } from './answer-readiness.js';
import type { LivePayload } from './live-payload.js';
import { createPage, type Page } from './page.js';

interface Held {
  readonly base: Page;
  readonly url: string;
  readonly answer: ReadyAnswer;
  readonly page: Page;
}

/** What the router tells the speculator, and asks of it. */
export interface Speculator {
  /** The page rendered ahead for the current page, if any. */
  current(): Page | null;
  /** The user is likely to open `url` (the navigation's URL) whose cache key is `key`. */
  intend(key: string, url: string): void;
  /** A prefetched answer for `key` has fully arrived. */
  arrived(key: string): void;
  /**
   * The held page if it is what committing `answer` for `url` on the current page would build;
   * the held page is forgotten either way.
   */
  take(answer: ReadyAnswer, url: string): Page | undefined;
  /** Forgets the held page (its data may have changed). */
  drop(): void;
}

export function createSpeculator<S>(options: {
  table: RouteTable<S>;
  currentPage: () => Page;
  /** The cached answer a navigation to `key` would use now, if there is one. */
  usableAnswer: (key: string) => Promise<LivePayload> | undefined;
  /** Called when the held page changes. */
  onChange: () => void;
}): Speculator {
  let held: Held | null = null;
  // The latest intent, on the page it was shown on.
  let wanted: { key: string; url: string; on: Page } | null = null;

  function attempt(): void {
    const base = options.currentPage();
    if (!wanted || wanted.on !== base) return;
    const payload = options.usableAnswer(wanted.key);
    const answer = payload && readyNow(options.table, payload);
    // Nothing kept means another root layout: that navigation loads a whole document.
    if (!answer || answer.route.from === 0) return;
    if (held && held.base === base && held.answer.payload === answer.payload) return;
    const page = createPage(options.table, answer.route, answer.payload, base, wanted.url, {
      speculative: true,
    });
    held = { base, url: wanted.url, answer, page };
    options.onChange();
  }

  return {
    current: () => (held && held.base === options.currentPage() ? held.page : null),
    intend(key, url) {
      wanted = { key, url, on: options.currentPage() };
      attempt();
    },
    arrived(key) {
      if (wanted?.key === key) attempt();
    },
    take(answer, url) {
      const found = held;
      held = null;
      wanted = null;
      const same =
        found !== null &&
        found.base === options.currentPage() &&
        found.url === url &&
        found.answer.payload === answer.payload &&
        found.answer.route === answer.route;
      return same ? found.page : undefined;
    },
    drop() {
      if (!held) return;
      held = null;
      options.onChange();
    },
  };
}
