/**
 * The account area: a second root layout (navigating here from the catalogue loads a new
 * document). It reads a cookie, so its data is private and never shared between users.
 */
import { segment } from '@strata/web';
import type { ReactNode } from 'react';
import type { AppServices } from '../services.js';

function AccountLayout({ children }: { children?: ReactNode }) {
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>Your account</title>
      </head>
      <body className="account">
        <header>
          <a href="/">Back to the catalogue</a>
        </header>
        <main>{children}</main>
      </body>
    </html>
  );
}

const accountHome = segment<{ name: string }, AppServices>({
  id: 'account-home',
  path: '',
  kind: 'page',
  loader: ({ request }) => ({ name: request.cookie('strata_user') ?? 'guest' }),
  component: ({ data }) => (
    <section>
      <h1>Your account</h1>
      <p className="greeting">Signed in as {data.name}</p>
    </section>
  ),
});

/** The account root layout. */
export const accountRoot = segment<null, AppServices>({
  id: 'account',
  path: 'account',
  kind: 'layout',
  root: true,
  component: AccountLayout,
  children: [accountHome],
});
