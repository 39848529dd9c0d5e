/**
 * A deliberately slow page: its data takes a while (the shell and loading view stream first),
 * and part of it streams in even later.
 */
import { Await, segment, type DeferredRef } from '@strata/web';
import type { AppServices } from '../services.js';

/** How long the slow page's data takes, and the part after it. */
export const SLOW_PAGE_DELAY_MS = 1200;

function delay<T>(ms: number, value: T, signal: AbortSignal): Promise<T> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => resolve(value), ms);
    // Settles either way, so an abandoned render's loader ends instead of waiting forever.
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });
}

/** /slow */
export const slowPage = segment<{ headline: string; more: DeferredRef<string[]> }, AppServices>({
  id: 'slow',
  path: 'slow',
  kind: 'page',
  async loader({ services, signal, defer, tag }) {
    const page = await services.catalog.listItems({ pageSize: 3, view: 'basic' });
    tag(...page.tags);
    const headline = await delay(
      SLOW_PAGE_DELAY_MS,
      `Today's picks: ${page.items.map((i) => i.title).join(', ')}`,
      signal,
    );
    return {
      headline,
      more: defer(
        'more',
        delay(SLOW_PAGE_DELAY_MS, ['Free shipping over $50', 'New arrivals weekly'], signal),
      ),
    };
  },
  component: ({ data }) => (
    <section>
      <h1>Slow page</h1>
      <p className="headline">{data.headline}</p>
      <Await value={data.more} fallback={<p className="more-loading">Loading more…</p>}>
        {(notes) => (
          <ul className="more">
            {notes.map((note) => (
              <li key={note}>{note}</li>
            ))}
          </ul>
        )}
      </Await>
    </section>
  ),
  loading: () => <p className="loading">Loading the slow page…</p>,
});
