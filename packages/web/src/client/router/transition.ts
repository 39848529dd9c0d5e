/**
 * The navigation state machine (pure): `transition(state, event)` returns the next state and
 * the effects to run. Navigation ids make overtaken navigations harmless: anything that
 * arrives for an id other than the pending one is ignored, so a stale answer never commits.
 */

/** How the new page enters history. */
export type NavigationMode = 'push' | 'replace' | 'pop' | 'refresh';

/** The navigation in progress. */
export interface PendingNavigation {
  readonly id: number;
  readonly url: string;
  readonly mode: NavigationMode;
  readonly startedAt: number;
}

/** The router's state. */
export interface RouterState {
  readonly url: string;
  readonly build: string;
  readonly root: string;
  readonly pending: PendingNavigation | null;
  readonly lastId: number;
}

/** Why a navigation became a full page load. */
export type HardReason =
  | 'root-changed'
  | 'build-changed'
  | 'not-a-payload'
  | 'not-ok'
  | 'fetch-failed'
  | 'timeout'
  | 'incomplete';

/** What the effect runner learns about an answer once its page can render. */
export interface LoadedPage {
  readonly build: string;
  readonly root: string;
}

/** Inputs. */
export type RouterEvent =
  | {
      readonly type: 'navigate';
      readonly url: string;
      readonly mode: NavigationMode;
      readonly now: number;
    }
  | { readonly type: 'loaded'; readonly id: number; readonly page: LoadedPage }
  | { readonly type: 'failed'; readonly id: number; readonly reason: HardReason }
  | { readonly type: 'timeout'; readonly id: number }
  /** Back or forward showed a page kept in memory for that history entry. */
  | { readonly type: 'restored'; readonly url: string };

/** Outputs, run by the effect runner. */
export type RouterEffect =
  | {
      readonly type: 'load';
      readonly id: number;
      readonly url: string;
      readonly mode: NavigationMode;
    }
  | { readonly type: 'start-timer'; readonly id: number }
  | { readonly type: 'cancel-timer'; readonly id: number }
  | { readonly type: 'abandon'; readonly id: number }
  | {
      readonly type: 'commit';
      readonly id: number;
      readonly url: string;
      readonly mode: NavigationMode;
    }
  | {
      readonly type: 'hard-navigate';
      readonly url: string;
      readonly replace: boolean;
      readonly reason: HardReason;
    };

/** The next state and what to do. */
export interface Transition {
  readonly state: RouterState;
  readonly effects: readonly RouterEffect[];
}

/** The initial state of a hydrated page. */
export function initialRouterState(page: {
  url: string;
  build: string;
  root: string;
}): RouterState {
  return { ...page, pending: null, lastId: 0 };
}

/** Applies one event. */
export function transition(state: RouterState, event: RouterEvent): Transition {
  switch (event.type) {
    case 'navigate': {
      const id = state.lastId + 1;
      const overtaken = state.pending ? overtakenEffects(state.pending) : [];
      return {
        state: {
          ...state,
          lastId: id,
          pending: { id, url: event.url, mode: event.mode, startedAt: event.now },
        },
        effects: [
          ...overtaken,
          { type: 'load', id, url: event.url, mode: event.mode },
          { type: 'start-timer', id },
        ],
      };
    }
    case 'loaded': {
      const pending = state.pending;
      if (!pending || pending.id !== event.id) return { state, effects: [] };
      if (event.page.build !== state.build) return hard(state, pending, 'build-changed');
      if (event.page.root !== state.root) return hard(state, pending, 'root-changed');
      return {
        state: { ...state, url: pending.url, pending: null },
        effects: [
          { type: 'cancel-timer', id: pending.id },
          { type: 'commit', id: pending.id, url: pending.url, mode: pending.mode },
        ],
      };
    }
    case 'failed':
    case 'timeout': {
      const pending = state.pending;
      if (!pending || pending.id !== event.id) return { state, effects: [] };
      return hard(state, pending, event.type === 'timeout' ? 'timeout' : event.reason);
    }
    case 'restored':
      // A navigation still pending was overtaken by the kept page: abandoned like any other
      // (its answer released, its timer stopped, telemetry told), and anything that still
      // arrives for its id is ignored.
      return {
        state: { ...state, url: event.url, pending: null },
        effects: state.pending ? overtakenEffects(state.pending) : [],
      };
  }
}

function overtakenEffects(pending: PendingNavigation): RouterEffect[] {
  return [
    { type: 'abandon', id: pending.id },
    { type: 'cancel-timer', id: pending.id },
  ];
}

function hard(state: RouterState, pending: PendingNavigation, reason: HardReason): Transition {
  return {
    state: { ...state, pending: null },
    effects: [
      { type: 'cancel-timer', id: pending.id },
      { type: 'abandon', id: pending.id },
      { type: 'hard-navigate', url: pending.url, replace: pending.mode === 'replace', reason },
    ],
  };
}
