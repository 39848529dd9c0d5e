/**
 * One IntersectionObserver per router for every Link (instead of one per Link): a page with a
 * hundred links commits without creating a hundred observers.
 */

/** Watches elements entering and leaving the viewport margin. */
export interface LinkVisibility {
  /** Calls `onChange(visible)` as `element` enters or leaves; returns a function that stops. */
  observe(element: Element, onChange: (visible: boolean) => void): () => void;
}

/** Creates the shared watcher (a no-op where IntersectionObserver does not exist). */
export function createLinkVisibility(marginPx: number): LinkVisibility {
  if (typeof IntersectionObserver === 'undefined') return { observe: () => () => undefined };
  const callbacks = new Map<Element, (visible: boolean) => void>();
  let observer: IntersectionObserver | undefined;
  const shared = () =>
    (observer ??= new IntersectionObserver(
      (entries) => {
        for (const entry of entries) callbacks.get(entry.target)?.(entry.isIntersecting);
      },
      { rootMargin: `${marginPx}px` },
    ));
  return {
    observe(element, onChange) {
      callbacks.set(element, onChange);
      shared().observe(element);
      return () => {
        callbacks.delete(element);
        observer?.unobserve(element);
      };
    },
  };
}
