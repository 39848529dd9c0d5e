/**
 * The notes app's root layout (its own document shell) and its shared views: not found, and the
 * error view its pages show when their data fails to load.
 */
import { Link, type ErrorViewProps } from '@strata/web';
import type { ReactNode } from 'react';

const STYLE = `body{font-family:Georgia,'Times New Roman',serif;margin:0;background:#fbf8f1;color:#2b2a27}
.masthead{background:#2f4858;color:#fbf8f1;padding:.75rem 1.5rem;display:flex;gap:1.5rem;align-items:baseline}
.masthead a{color:inherit}.masthead .brand{font-size:1.4rem;text-decoration:none}
.page{max-width:44rem;margin:0 auto;padding:1.5rem}.note{border-left:3px solid #86bbd8;padding:.25rem 1rem;margin:1rem 0}
.note .meta{color:#6b6860;font-size:.9rem}.field-error,.form-error{color:#a4161a;display:block}
label{display:block;margin:.5rem 0}input,textarea{font:inherit;width:100%;box-sizing:border-box}`;

/** Root layout: the notes app's <html>. */
export function NotesLayout({ children }: { children?: ReactNode }) {
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>Strata Notes</title>
        <style>{STYLE}</style>
      </head>
      <body>
        <header className="masthead">
          <Link href="/notes" className="brand">
            Strata Notes
          </Link>
          <nav aria-label="Notes">
            <Link href="/notes">Guestbook</Link> · <Link href="/notes/stats">Stats</Link>
          </nav>
        </header>
        <div className="page">{children}</div>
      </body>
    </html>
  );
}

/** Unknown URLs and missing notes. */
export function NotesNotFound() {
  return (
    <section className="not-found">
      <h1>No such note</h1>
      <p>Nothing is written at this address.</p>
      <Link href="/notes">Back to the guestbook</Link>
    </section>
  );
}

/** A page whose data failed to load. */
export function NotesError({ error, reset }: ErrorViewProps) {
  return (
    <section role="alert" className="notes-error">
      <h1>The notes could not be loaded</h1>
      <p>{error.message}</p>
      {error.digest ? <p>Digest: {error.digest}</p> : null}
      <button type="button" onClick={reset}>
        Try again
      </button>
    </section>
  );
}
