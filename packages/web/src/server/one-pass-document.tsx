/**
 * A document rendered in one pass, for pages where streaming buys nothing: every loader has
 * settled, no segment has a loading view and nothing is deferred. `renderToString` builds the
 * HTML as one string (no chunked byte encoding, no stream plumbing) and it is sent as that string
 * with a Content-Length: node encodes it straight into the socket write (a Buffer made here
 * would cost a page-sized allocation and copy). Rendering this way costs far less CPU than
 * `renderToPipeableStream` and a PassThrough (bench/render/micro.mjs; figures in
 * bench/render/RESULTS.md).
 *
 * The markup matches the streamed document's: the doctype, the module preload React would hoist
 * into <head>, and the boot scripts before </body>. Anything the one pass cannot render the
 * same way (a component that suspends or fails inside a Suspense boundary, which renderToString
 * leaves to the browser, or outside one, where it throws) answers `undefined`, and the caller
 * streams instead, which renders, waits and reports as usual.
 */
import type { ReactNode } from 'react';
import { preloadModule, type PreloadModuleOptions } from 'react-dom';
import { renderToString } from 'react-dom/server';

/** What the streamed document adds around the tree. */
export interface DocumentScripts {
  /** Inline script run first (the boot record); must already be safe inside <script>. */
  readonly bootstrapScriptContent: string;
  /** Module scripts that hydrate the page. */
  readonly bootstrapModules: readonly string[];
  /** The response's Content-Security-Policy script nonce, on every script and module preload. */
  readonly nonce?: string;
}

// What renderToString writes where a boundary is left for the browser to render.
const CLIENT_RENDERED_BOUNDARY = '<!--$!-->';

/** The whole document as one string, or undefined when it must be streamed instead. */
export function renderOnePass(tree: ReactNode, scripts: DocumentScripts): string | undefined {
  let html: string;
  try {
    html = renderToString(
      <ModulePreloads hrefs={scripts.bootstrapModules} nonce={scripts.nonce}>
        {tree}
      </ModulePreloads>,
    );
  } catch {
    return undefined;
  }
  if (html.includes(CLIENT_RENDERED_BOUNDARY)) return undefined;
  const nonce = scripts.nonce === undefined ? '' : ` nonce="${escapeAttribute(scripts.nonce)}"`;
  const boot =
    `<script${nonce}>${scripts.bootstrapScriptContent}</script>` +
    scripts.bootstrapModules
      .map(
        (src) => `<script type="module" src="${escapeAttribute(src)}"${nonce} async=""></script>`,
      )
      .join('');
  // One concatenation, flattened once where it is measured and written: searching the joined
  // document before prepending the doctype would flatten a page-sized copy twice.
  const doctype = html.startsWith('<html') ? '<!DOCTYPE html>' : '';
  const bodyEnd = html.lastIndexOf('</body>');
  return bodyEnd < 0
    ? doctype + html + boot
    : doctype + html.slice(0, bodyEnd) + boot + html.slice(bodyEnd);
}

/**
 * Asks React for the same `<link rel="modulepreload">` its streaming renderer writes for
 * bootstrap modules. A single-child wrapper: it adds no DOM and leaves `useId` paths unchanged.
 */
function ModulePreloads({
  hrefs,
  nonce,
  children,
}: {
  hrefs: readonly string[];
  nonce: string | undefined;
  children: ReactNode;
}): ReactNode {
  // react-dom 19 honours fetchPriority here (as for bootstrapModules); @types/react-dom lacks it.
  const options = { as: 'script', fetchPriority: 'low', nonce } as PreloadModuleOptions;
  for (const href of hrefs) preloadModule(href, options);
  return children;
}

function escapeAttribute(value: string): string {
  return value.replace(/[&"<>]/g, (c) => `&#${c.charCodeAt(0)};`);
}
