/**
 * `/slow`: a streamed page. The browser gets the layout and the loading view at once; the
 * loader's first value follows, and the deferred part streams in after it.
 */
import { Await, segment, type DeferredRef } from '@strata/web';
import type { AppServices } from '../services.js';

/** Resolves with `value()` after `ms`, or rejects when the request is abandoned. */
function after<T>(ms: number, value: () => T, signal: AbortSignal): Promise<T> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => resolve(value()), ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), reject(signal.reason)), {
      once: true,
    });
  });
}

interface SlowData {
  readonly servedAt: string;
  readonly forecast: DeferredRef<string>;
}

export const slowPage = segment<SlowData, AppServices>({
  id: 'slow',
  path: 'slow',
  kind: 'page',
  async loader({ defer, signal }) {
    const servedAt = await after(300, () => new Date().toISOString(), signal);
    const forecast = defer(
      'forecast',
      after(600, () => 'Sunny, with a chance of streamed HTML.', signal),
    );
    return { servedAt, forecast };
  },
  component: ({ data }) => (
    <section>
      <h1>A streamed page</h1>
      <p className="served-at">Rendered at {data.servedAt}.</p>
      <Await value={data.forecast} fallback={<p className="forecast-loading">Forecasting…</p>}>
        {(forecast) => <p className="forecast">{forecast}</p>}
      </Await>
    </section>
  ),
  loading: () => <p className="slow-loading">Loading the streamed page…</p>,
});
