import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SegmentState } from '../../render/segment-source.js';
import type { TrackedPromise } from '../../render/tracked-promise.js';
import { arrive, rootState, setUp } from '../../../test/harness/router.js';

describe('createRouter', () => {
  it('commits a prefetched answer that has arrived within navigate(), publishing once and fetching nothing', async () => {
    const { router, fetched, published } = setUp();
    await arrive();
    router.prefetch('/list', 'full');
    await arrive();

    router.navigate('/list');

    expect(published).toEqual([{ url: '/list', pending: false }]);
    expect(fetched).toEqual(['/list']);
    // React reads both segments without suspending: the kept layout's state is the same object.
    const page = router.getSnapshot().page;
    const kept = page.source.segment('root') as TrackedPromise<SegmentState>;
    const loaded = page.source.segment('list') as TrackedPromise<SegmentState>;
    expect([kept.status, kept.value]).toEqual(['fulfilled', rootState]);
    expect([loaded.status, loaded.value?.outcome]).toEqual([
      'fulfilled',
      { status: 'ok', data: 'list data', deferred: [] },
    ]);
  });

  it('keeps the old page while an answer that has not arrived loads, then commits it', async () => {
    const { router, published } = setUp();
    await arrive();

    router.navigate('/list');
    expect(published).toEqual([{ url: '/item', pending: true }]);
    await arrive();

    expect(published).toEqual([
      { url: '/item', pending: true },
      { url: '/list', pending: false },
    ]);
  });

  it('drops a slow navigation overtaken by a prefetched one', async () => {
    const { router, published } = setUp(['/item']);
    await arrive();
    router.prefetch('/list', 'full');
    await arrive();

    router.navigate('/item?again');
    router.navigate('/list');
    await arrive();

    expect(published).toEqual([
      { url: '/item', pending: true },
      { url: '/list', pending: false },
    ]);
  });
});

describe('createRouter defaults', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('runs at most 5 prefetches at once', async () => {
    const { router, fetched } = setUp(['/list']);
    await arrive();
    for (let n = 1; n <= 7; n++) router.prefetch(`/list?n=${n}`, 'full');
    await arrive();
    expect(fetched).toEqual(['/list', '/list', '/list', '/list', '/list']);
  });

  it('starts a still-queued prefetch for the page a navigation wants, instead of a second request', async () => {
    const busy = ['/a', '/b', '/c', '/d', '/e'];
    const { router, fetched, published, release } = setUp(busy);
    await arrive();
    for (const path of [...busy, '/list']) router.prefetch(path, 'full');
    await arrive();
    expect(fetched).toEqual(busy);

    router.navigate('/list');
    await arrive();
    release();
    await arrive();

    expect(published.at(-1)).toEqual({ url: '/list', pending: false });
    expect(fetched.filter((path) => path === '/list')).toEqual(['/list']);
  });

  it('loads the page as a document when its answer has not arrived after 3800 ms', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { router, assigned } = setUp(['/list']);
    router.navigate('/list');
    await vi.advanceTimersByTimeAsync(3799);
    expect(assigned).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(assigned).toEqual(['/list']);
  });
});
