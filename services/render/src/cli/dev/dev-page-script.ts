/**
 * What `strata dev` adds to every HTML page it proxies: one inline script, carrying the page's
 * CSP nonce (the render service allows no other script), that listens to the dev server's
 * events (same origin: CSP connect-src 'self') and reloads the page after a rebuild or shows an
 * overlay with a build or render error. Only the dev proxy adds it: production pages never
 * carry it. Pure.
 */

/** The path of the dev server's Server-Sent-Events stream. */
export const DEV_EVENTS_PATH = '/__strata/dev-events';

/** The nonce of `script-src` in a Content-Security-Policy header, if any. */
export function scriptNonce(csp: string | undefined): string | undefined {
  const scriptSrc = csp?.split(';').find((directive) => directive.trim().startsWith('script-src'));
  return /'nonce-([^']+)'/.exec(scriptSrc ?? '')?.[1];
}

/** A problem the overlay shows: what failed and the details (a message, a stack). */
export interface DevProblem {
  readonly title: string;
  readonly detail: string;
}

// Runs in the page. `generation` is the build the page was served from: a page served just
// before a rebuild reloads as soon as it connects.
function devClient(eventsUrl: string, generation: number): void {
  const events = new EventSource(eventsUrl);
  const show = (problem: { title: string; detail: string }) => {
    let box = document.getElementById('strata-dev-overlay');
    if (!box) {
      box = document.createElement('div');
      box.id = 'strata-dev-overlay';
      box.setAttribute('role', 'alert');
      Object.assign(box.style, {
        position: 'fixed',
        inset: '0',
        zIndex: '2147483647',
        overflow: 'auto',
        padding: '2rem',
        background: 'rgba(24, 8, 8, 0.94)',
        color: '#ffd7d7',
        font: '13px/1.5 ui-monospace, monospace',
        whiteSpace: 'pre-wrap',
      });
      document.body.appendChild(box);
    }
    box.textContent = `${problem.title}\n\n${problem.detail}`;
  };
  events.addEventListener('hello', (event) => {
    if (Number((event as MessageEvent<string>).data) !== generation) location.reload();
  });
  events.addEventListener('reload', () => location.reload());
  events.addEventListener('problem', (event) =>
    show(JSON.parse((event as MessageEvent<string>).data) as { title: string; detail: string }),
  );
}

/** The script element for a page served by build `generation` as request `requestId`. */
export function devScriptTag(nonce: string, requestId: string, generation: number): string {
  const url = `${DEV_EVENTS_PATH}?request=${encodeURIComponent(requestId)}`;
  const call = `(${devClient.toString()})(${JSON.stringify(url)}, ${generation});`;
  // `</` would end the element early; the script has none, but a URL or stack could.
  return `<script nonce="${nonce}">${call.replaceAll('</', '<\\/')}</script>`;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The page served instead of the app while it does not build or start, with the dev script. */
export function devErrorPage(problem: DevProblem, script: string): string {
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(problem.title)}</title></head>
<body style="margin:0;background:#180808;color:#ffd7d7;font:13px/1.5 ui-monospace,monospace">
<main style="padding:2rem;white-space:pre-wrap"><h1 style="font-size:1.1rem">${escapeHtml(problem.title)}</h1>${escapeHtml(problem.detail)}
<p>strata dev reloads this page once the problem is fixed.</p></main>${script}</body></html>`;
}
