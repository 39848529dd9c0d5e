import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { Link } from './link.js';

// Tests run without a DOM, so Link is the server's: the anchor alone.
describe('Link on the server', () => {
  it('renders the plain anchor', () => {
    expect(renderToString(<Link href="/items/1">Item 1</Link>)).toBe(
      '<a href="/items/1">Item 1</a>',
    );
  });

  it("passes the anchor's attributes and drops Link's own props", () => {
    const html = renderToString(
      <Link
        href="/items?page=2"
        prefetch="full"
        replace
        className="next"
        aria-label="Next page"
        onClick={() => undefined}
      >
        Next
      </Link>,
    );
    // Attributes in the order they were written.
    expect(html).toBe('<a href="/items?page=2" class="next" aria-label="Next page">Next</a>');
  });

  it('leaves no prefetch attribute when prefetching is turned off', () => {
    expect(renderToString(<Link href="/a" prefetch={false} title="A" />)).toBe(
      '<a href="/a" title="A"></a>',
    );
  });
});
