import { describe, expect, it } from 'vitest';
import { arrive, setUp } from '../../../test/harness/router.js';

describe('rendering ahead of a click', () => {
  it('holds the page a prefetched link would show once the user shows intent, and the navigation commits that same page without fetching', async () => {
    const { router, fetched } = setUp();
    await arrive();
    router.prefetch('/list', 'full');
    await arrive();
    expect(router.getSnapshot().speculation).toBeNull();

    router.prefetch('/list', 'auto', { intent: true });
    const ahead = router.getSnapshot().speculation;
    expect(ahead?.url).toBe('/list');
    // Rendered beside the current page below the kept root layout, under a branch of its own.
    expect(ahead?.from).toBe(1);
    expect(ahead?.branches[0]).toBe(router.getSnapshot().page.branches[0]);
    expect(ahead?.branches[1]).toMatch(/^s\d+$/);

    router.navigate('/list');
    expect(router.getSnapshot().page).toBe(ahead);
    expect(router.getSnapshot().speculation).toBeNull();
    expect(fetched).toEqual(['/list']);
  });

  it('waits for an answer that is still arriving', async () => {
    const { router } = setUp();
    await arrive();
    router.prefetch('/list', 'full', { intent: true });
    expect(router.getSnapshot().speculation).toBeNull();

    await arrive();
    expect(router.getSnapshot().speculation?.url).toBe('/list');
  });

  it('follows the latest intent', async () => {
    const { router } = setUp();
    await arrive();
    router.prefetch('/list', 'full', { intent: true });
    router.prefetch('/item?other', 'full', { intent: true });
    await arrive();

    expect(router.getSnapshot().speculation?.url).toBe('/item?other');
  });

  it('counts only on the page it was built on: after another navigation the page is built anew', async () => {
    const { router } = setUp();
    await arrive();
    router.prefetch('/list', 'full', { intent: true });
    await arrive();
    const ahead = router.getSnapshot().speculation;

    router.navigate('/item?elsewhere');
    await arrive();
    expect(router.getSnapshot().page.url).toBe('/item?elsewhere');
    expect(router.getSnapshot().speculation).toBeNull();

    router.navigate('/list');
    await arrive();
    expect(router.getSnapshot().page.url).toBe('/list');
    expect(router.getSnapshot().page).not.toBe(ahead);
  });

  it('is dropped when a server action invalidates cached data', async () => {
    const { router, published } = setUp();
    await arrive();
    router.prefetch('/list', 'full', { intent: true });
    await arrive();
    const before = published.length;

    router.invalidate(['items']);

    expect(router.getSnapshot().speculation).toBeNull();
    expect(published.length).toBe(before + 1);
  });

  it('keeps a revealed branch for later navigations to the same segment, so React updates it in place', async () => {
    const { router } = setUp();
    await arrive();
    router.prefetch('/list', 'full', { intent: true });
    await arrive();
    router.navigate('/list');
    const revealed = router.getSnapshot().page.branches;
    expect(revealed[1]).toMatch(/^s\d+$/);

    router.navigate('/list?page=2');
    await arrive();

    const page = router.getSnapshot().page;
    expect(page.url).toBe('/list?page=2');
    expect(page.branches).toEqual(revealed);
  });
});
