/**
 * <Link>: a plain anchor that navigates without reloading. It prefetches when it comes within
 * 200 px of the viewport (once per cache entry; cancelled if it leaves before the request
 * starts) and on hover, touch or keyboard focus (jumping the queue; the router then renders the
 * page ahead of the click). `prefetch={false}` turns all of it off.
 * Modifier clicks, other targets and downloads are left to the browser. Without a router
 * (server rendering) it is just the anchor.
 *
 * On the server (no `document`) Link renders only that anchor, without hooks or handlers: the
 * same markup, for ~100 links a page at a fraction of the cost, and hydration sees the same DOM.
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
import { jsx } from 'react/jsx-runtime';
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

/** The browser's Link: navigates in place and prefetches. */
function BrowserLink({
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
}

/** Link's own props: the anchor must not get them. */
const LINK_ONLY_PROPS = [
  'prefetch',
  'replace',
  'onClick',
  'onMouseEnter',
  'onTouchStart',
  'onFocus',
] as const satisfies readonly (keyof LinkProps)[];

/**
 * The server's Link: the anchor alone (handlers and prefetching need a browser). A page has a
 * hundred or more of them, and most carry only href and children: then the anchor takes Link's
 * props object as its own (React never mutates props), with no copy.
 */
function ServerLink(props: LinkProps): ReactNode {
  // React's development build puts a warning `key` getter on a keyed element's props and warns
  // when that object is passed on as props; a copy leaves the (non-enumerable) getter behind.
  if ('key' in props) return jsx('a', withoutLinkProps(props));
  for (const name of LINK_ONLY_PROPS)
    if (props[name] !== undefined) return jsx('a', withoutLinkProps(props));
  return jsx('a', props);
}

function withoutLinkProps(props: LinkProps): AnchorHTMLAttributes<HTMLAnchorElement> {
  const anchor: Partial<LinkProps> = { ...props };
  for (const name of LINK_ONLY_PROPS) delete anchor[name];
  return anchor;
}

/**
 * A navigating, prefetching anchor; in the browser it re-renders only when its props change.
 * On the server nothing re-renders, so the anchor is rendered without memo's extra element.
 */
export const Link = typeof document === 'undefined' ? ServerLink : memo(BrowserLink);
