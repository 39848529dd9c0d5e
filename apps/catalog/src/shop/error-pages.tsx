/**
 * Deliberately broken pages, for the error screens and failure drills: one whose loader always
 * fails on the server, one whose component fails in the browser when asked to, one whose
 * component fails whenever the browser renders it (none has an error view, so the failures
 * reach the application-error screens), and one whose failing loader is shown by the page's own
 * error view.
 */
import { Link, segment } from '@strata/web';
import { useState } from 'react';
import type { AppServices } from '../services.js';
import { ShopError } from './shop-layout.js';

/** /errors/server: the loader throws. */
export const serverErrorPage = segment<null, AppServices>({
  id: 'error-server',
  path: 'errors/server',
  kind: 'page',
  loader: () => {
    throw new Error('Deliberate server failure (errors/server)');
  },
  component: () => <p>unreachable</p>,
});

function ClientFailure() {
  const [broken, setBroken] = useState(false);
  if (broken) throw new Error('Deliberate client failure (errors/client)');
  return (
    <section>
      <h1>Client error drill</h1>
      <button type="button" className="break" onClick={() => setBroken(true)}>
        Break this page
      </button>
      <Link href="/errors/render">A page that fails as the browser renders it</Link>
    </section>
  );
}

/** /errors/client: rendering throws after the button is pressed. */
export const clientErrorPage = segment<null, AppServices>({
  id: 'error-client',
  path: 'errors/client',
  kind: 'page',
  component: ClientFailure,
});

/** /errors/render: the component throws whenever it renders in the browser. */
export const renderErrorPage = segment<null, AppServices>({
  id: 'error-render',
  path: 'errors/render',
  kind: 'page',
  component: () => {
    if (typeof window !== 'undefined') throw new Error('Deliberate client failure (errors/render)');
    return <p>Renders on the server only.</p>;
  },
});

/** /errors/segment: the loader throws, and the page's error view shows it (with its digest). */
export const segmentErrorPage = segment<null, AppServices>({
  id: 'error-segment',
  path: 'errors/segment',
  kind: 'page',
  loader: () => {
    throw new Error('Deliberate server failure (errors/segment)');
  },
  component: () => <p>unreachable</p>,
  error: ShopError,
});
