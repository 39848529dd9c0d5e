/**
 * The root layout: the document shell every page renders inside, and the not-found page.
 */
import { Link } from '@strata/web';
import type { ReactNode } from 'react';

const STYLE = `body{font-family:system-ui,sans-serif;margin:0;color:#1d1d1f}
header{background:#24292f;color:#fff;padding:.75rem 1.5rem;display:flex;gap:1rem}
header a{color:inherit}main{max-width:40rem;margin:0 auto;padding:1.5rem}
.field-error{color:#b3261e;display:block}`;

export function SiteLayout({ children }: { children?: ReactNode }) {
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>My Strata app</title>
        <style>{STYLE}</style>
      </head>
      <body>
        <header>
          <Link href="/">Home</Link>
          <Link href="/slow">Streamed page</Link>
        </header>
        <main>{children}</main>
      </body>
    </html>
  );
}

export function NotFound() {
  return (
    <section className="not-found">
      <h1>Not found</h1>
      <Link href="/">Back home</Link>
    </section>
  );
}
