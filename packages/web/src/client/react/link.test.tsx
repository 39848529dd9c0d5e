import { renderToString } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import { Link } from './link.js';

// Tests run without a DOM, so Link is the server's: the anchor alone.
describe('Link on the server', () => {
  it('renders keyed links in a list without React warning about a spread key', () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const html = renderToString(
      <nav>
        {['/a', '/b'].map((href) => (
          <Link key={href} href={href}>
            {href}
          </Link>
        ))}
      </nav>,
    );
    expect(html).toBe('<nav><a href="/a">/a</a><a href="/b">/b</a></nav>');
    expect(errors).not.toHaveBeenCalled();
    errors.mockRestore();
  });

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
