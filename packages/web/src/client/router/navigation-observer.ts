/**
 * What the router tells an observer (telemetry) about each navigation: when it started and
 * how it ended. A committed navigation ends when React has put the new page in the DOM.
 */
import type { RouterEffect } from './transition.js';

/** How a navigation ended. */
export type NavigationOutcome = 'committed' | 'overtaken' | 'full-load';

/** Receives navigation lifecycle events; called synchronously by the router. */
export interface NavigationObserver {
  started(navigation: { readonly id: number; readonly url: string }): void;
  ended(navigation: {
    readonly id: number;
    readonly outcome: NavigationOutcome;
    /** Route pattern of the committed page. */
    readonly pattern?: string;
  }): void;
}

/** Tells `observer` what one transition's effects mean for navigations. */
export function reportNavigationEffects(
  observer: NavigationObserver,
  effects: readonly RouterEffect[],
): void {
  // An abandoned navigation was overtaken, unless the same step turns it into a full load.
  const fullLoad = effects.some((effect) => effect.type === 'hard-navigate');
  for (const effect of effects) {
    if (effect.type === 'abandon')
      observer.ended({ id: effect.id, outcome: fullLoad ? 'full-load' : 'overtaken' });
    else if (effect.type === 'load') observer.started({ id: effect.id, url: effect.url });
  }
}
