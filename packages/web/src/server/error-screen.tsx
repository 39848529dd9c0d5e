/**
 * The application-error document, sent when an error escapes every boundary on the server.
 * It shows the fixed text, the error's digest and the request's reference, never the error.
 */
import { renderToStaticMarkup } from 'react-dom/server';

/** The exact text for errors that happened on the server. */
export const SERVER_ERROR_TEXT =
  'Application error: a server-side exception has occurred (see the server logs for more information).';
/** The exact text for errors that happened in the browser. */
export const CLIENT_ERROR_TEXT =
  'Application error: a client-side exception has occurred (see the browser console for more information).';

/** A complete HTML document for a server error. */
export function renderErrorScreen(details: {
  digest: string;
  reference: string;
  buildId: string;
}): string {
  const markup = renderToStaticMarkup(
    <html lang="en" id="__strata_error">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex" />
        <title>Application error</title>
      </head>
      <body
        style={{
          fontFamily: 'system-ui, sans-serif',
          margin: '4rem auto',
          maxWidth: '40rem',
          padding: '0 1rem',
        }}
      >
        <main role="alert">
          <h2 style={{ fontSize: '1rem', fontWeight: 400 }}>{SERVER_ERROR_TEXT}</h2>
          <p>Digest: {details.digest}</p>
          <p style={{ color: '#666', fontSize: '0.875rem' }}>Reference: {details.reference}</p>
        </main>
      </body>
    </html>,
  );
  return `<!DOCTYPE html>${markup}`;
}
