/**
 * The application-error document, sent when an error escapes every boundary on the server.
 * It shows the fixed text, the error's digest and the request's reference, never the error.
 */
import { renderToStaticMarkup } from 'react-dom/server';
import { BOOT_GLOBAL } from '../protocol/constants.js';
import { jsonForScript } from '../protocol/safe-json.js';
import { CLIENT_ERROR_TEXT, SERVER_ERROR_TEXT } from '../render/error-texts.js';

export { CLIENT_ERROR_TEXT, SERVER_ERROR_TEXT };

/** A complete HTML document for a server error. */
export function renderErrorScreen(details: {
  digest: string;
  reference: string;
  buildId: string;
  /** The boot record and scripts that let the browser runtime report the error. */
  client?: { boot: object; scripts: readonly string[] };
  /** The response's Content-Security-Policy script nonce. */
  nonce?: string;
}): string {
  const { client, nonce } = details;
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
        {client && (
          <script
            nonce={nonce}
            dangerouslySetInnerHTML={{
              __html: `self.${BOOT_GLOBAL}=${jsonForScript(client.boot)}`,
            }}
          />
        )}
        {client?.scripts.map((src) => (
          <script key={src} type="module" src={src} nonce={nonce} />
        ))}
      </body>
    </html>,
  );
  return `<!DOCTYPE html>${markup}`;
}
