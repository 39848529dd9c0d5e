/**
 * The catalogue's root layout and its shared views (not found, error).
 */
import { Link, type ErrorViewProps } from '@strata/web';
import type { ReactNode } from 'react';

const STYLE = `body{font-family:system-ui,sans-serif;margin:0;color:#1d1d1f}header,main,footer{max-width:56rem;margin:0 auto;padding:1rem}
nav a{margin-right:1rem}ul.items{list-style:none;padding:0}ul.items li{padding:.5rem 0;border-bottom:1px solid #eee}
.price{margin-left:.75rem;color:#555}.field-error,.form-error{color:#b00020}label{display:block;margin:.5rem 0}
input,select,textarea{font:inherit;padding:.25rem}`;

/** Root layout of the catalogue. */
export function ShopLayout({ children }: { children?: ReactNode }) {
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>Strata Catalogue</title>
        <style>{STYLE}</style>
      </head>
      <body>
        <header>
          <nav>
            <Link href="/">Home</Link>
            <Link href="/items">Items</Link>
            <Link href="/items/new">New item</Link>
            <Link href="/slow">Slow page</Link>
            <Link href="/account">Account</Link>
          </nav>
        </header>
        <main>{children}</main>
        <footer>
          <p>Strata example catalogue</p>
        </footer>
      </body>
    </html>
  );
}

/** Shown for unknown URLs and missing items. */
export function ShopNotFound() {
  return (
    <section>
      <h1>Not found</h1>
      <p>There is nothing at this address.</p>
      <Link href="/items">Browse items</Link>
    </section>
  );
}

/** Shown when a page's data failed to load. */
export function ShopError({ error, reset }: ErrorViewProps) {
  return (
    <section role="alert">
      <h1>Something went wrong</h1>
      <p>{error.message}</p>
      {error.digest ? <p>Digest: {error.digest}</p> : null}
      <button type="button" onClick={reset}>
        Try again
      </button>
    </section>
  );
}
