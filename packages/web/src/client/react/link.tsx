/**
 * <Link>: a plain anchor that navigates without reloading. It prefetches when it comes within
 * 200 px of the viewport (once per cache entry; cancelled if it leaves before the request
 * starts) and on hover, touch or keyboard focus (jumping the queue; the router then renders the
 * page ahead of the click). `prefetch={false}` turns all of it off.
 * Modifier clicks, other targets and downloads are left to the browser. Without a router
 * (server rendering) it is just the anchor.
 */
import {
  memo,
  use,
  useEffect,
  useRef,
  type AnchorHTMLAttributes,
  type MouseEvent,
  type ReactNode,
} from 'react';
import type { LinkPrefetch } from '../router/create-router.js';
import { RouterContext } from './router-context.js';

/** Props of Link. */
export interface LinkProps extends Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> {
  readonly href: string;
  /** auto (default): up to the nearest loading view; full: everything; false: never. */
  readonly prefetch?: LinkPrefetch;
  readonly replace?: boolean;
  readonly children?: ReactNode;
}

function leaveToBrowser(event: MouseEvent<HTMLAnchorElement>): boolean {
  const target = event.currentTarget.getAttribute('target');
  return (
    event.defaultPrevented ||
    event.button !== 0 ||
    event.metaKey ||
    event.ctrlKey ||
    event.shiftKey ||
    event.altKey ||
    (target !== null && target !== '_self') ||
    event.currentTarget.hasAttribute('download')
  );
}

/** A navigating, prefetching anchor; re-renders only when its props change. */
export const Link = memo(function Link({
  href,
  prefetch = 'auto',
  replace = false,
  onClick,
  onMouseEnter,
  onTouchStart,
  onFocus,
  children,
  ...rest
}: LinkProps): ReactNode {
  const router = use(RouterContext);
  const anchor = useRef<HTMLAnchorElement>(null);

  useEffect(() => {
    const element = anchor.current;
    if (!router || prefetch === false || !element) return undefined;
    let pending: { cancel(): void } | undefined;
    return router.visibility.observe(element, (visible) => {
      if (visible && !pending) pending = router.prefetch(href, prefetch);
      if (!visible && pending) {
        pending.cancel();
        pending = undefined;
      }
    });
  }, [router, href, prefetch]);

  const intent = () => {
    if (router && prefetch !== false) router.prefetch(href, prefetch, { intent: true });
  };

  return (
    <a
      {...rest}
      ref={anchor}
      href={href}
      onClick={(event) => {
        onClick?.(event);
        if (!router || leaveToBrowser(event)) return;
        event.preventDefault();
        router.navigate(href, { replace });
      }}
      onMouseEnter={(event) => {
        onMouseEnter?.(event);
        intent();
      }}
      onTouchStart={(event) => {
        onTouchStart?.(event);
        intent();
      }}
      onFocus={(event) => {
        onFocus?.(event);
        intent();
      }}
    >
      {children}
    </a>
  );
});
