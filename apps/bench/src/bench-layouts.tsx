/**
 * The benchmark's root and section layouts (bench/anchors/README.md), markup exact.
 * Site-wide constants, not data: the contract fixes them.
 */
import { Link } from '@strata/web';
import type { ReactNode } from 'react';

const SITE_TITLE = 'Bench Store';
const NAV = [
  { href: '/', label: 'Home' },
  { href: '/bench/items', label: 'Items' },
  { href: '/bench/deals', label: 'Deals' },
  { href: '/bench/about', label: 'About' },
  { href: '/bench/cart', label: 'Cart' },
];
const CATEGORIES = Array.from({ length: 20 }, (_, n) => `cat-${n}`);

/** Root layout of the benchmark pages. */
export function BenchRootLayout({ children }: { children?: ReactNode }) {
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{SITE_TITLE}</title>
      </head>
      <body>
        <header>
          <nav>
            {NAV.map((link) => (
              <Link key={link.href} href={link.href}>
                {link.label}
              </Link>
            ))}
          </nav>
        </header>
        <main>{children}</main>
        <footer>
          <p>Bench Store anchor page</p>
        </footer>
      </body>
    </html>
  );
}

/** Section layout: the category aside. */
export function BenchSectionLayout({ children }: { children?: ReactNode }) {
  return (
    <div className="section">
      <aside>
        <ul>
          {CATEGORIES.map((category) => (
            <li key={category}>
              <Link href={`/bench/category/${category}`}>{category}</Link>
            </li>
          ))}
        </ul>
      </aside>
      <section>{children}</section>
    </div>
  );
}
