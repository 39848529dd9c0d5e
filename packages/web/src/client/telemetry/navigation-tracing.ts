/**
 * Navigation transactions from the router's own events: started at the click, named by the
 * route pattern (never the URL), ended when React has rendered the new page. A navigation
 * that is overtaken or becomes a full page load is marked with its outcome and ended, so the
 * send filter drops it.
 */
import {
  startBrowserTracingNavigationSpan,
  startInactiveSpan,
  updateSpanName,
  type Span,
} from '@sentry/browser';
import type { getClient } from '@sentry/browser';
import type { RouteTable } from '../../routes/route-table.js';
import { routeNameOf } from './route-name.js';
import type { NavigationOutcome } from '../router/navigation-observer.js';
import { NAVIGATION_OUTCOME_ATTRIBUTE } from './unsent-transactions.js';

type Client = NonNullable<ReturnType<typeof getClient>>;

/** The router's navigation events, stamped with when they happened (epoch ms). */
export interface TimedNavigationObserver {
  started(navigation: { id: number; url: string; at: number }): void;
  ended(navigation: { id: number; outcome: NavigationOutcome; pattern?: string; at: number }): void;
}

/** An observer that turns navigations into `navigation` transactions. */
export function createNavigationTracing(
  client: Client,
  table: RouteTable<never>,
): TimedNavigationObserver {
  const open = new Map<number, { navigation: Span; render: Span }>();
  return {
    started({ id, url, at }) {
      const navigation = startBrowserTracingNavigationSpan(
        client,
        {
          name: routeNameOf(table, url),
          startTime: at / 1000,
          attributes: { 'sentry.source': 'route', 'sentry.origin': 'auto.navigation.strata' },
        },
        { url: new URL(url, location.href).href },
      );
      if (!navigation) return;
      // Keeps the transaction open until the page is in the DOM: an idle span's end is
      // trimmed to its last child's, and the payload fetch ends before React renders.
      const render = startInactiveSpan({
        name: 'load and render',
        op: 'ui.navigation.render',
        parentSpan: navigation,
        startTime: at / 1000,
      });
      open.set(id, { navigation, render });
    },
    ended({ id, outcome, pattern, at }) {
      const spans = open.get(id);
      open.delete(id);
      if (!spans) return;
      if (pattern) updateSpanName(spans.navigation, pattern);
      spans.navigation.setAttribute(NAVIGATION_OUTCOME_ATTRIBUTE, outcome);
      spans.render.end(at / 1000);
      spans.navigation.end(at / 1000);
    },
  };
}
