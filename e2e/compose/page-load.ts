/**
 * Page load through the gateway for the compose drills: GETs back to back, each on a fresh
 * connection, while something happens to the stack, and every status they got.
 */
import { get as httpGet, type IncomingHttpHeaders } from 'node:http';

/** A request slower than this counts as failed: a person would have given up on it. */
const REQUEST_TIMEOUT_MS = 20_000;

/** A page as `getPage` read it. */
export interface Page {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly text: string;
}

/**
 * One GET on a fresh connection, with its headers and body, for a check while or right after the
 * replicas change: the gateway reloads then and closes its idle connections, which a pooled
 * fetch can race.
 */
export function getPage(url: string): Promise<Page> {
  return new Promise((resolve, reject) => {
    const request = httpGet(url, { agent: false, timeout: REQUEST_TIMEOUT_MS }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          text: Buffer.concat(chunks).toString('utf8'),
        }),
      );
      response.on('error', reject);
    });
    request.on('timeout', () => request.destroy(new Error(`GET ${url} timed out`)));
    request.on('error', reject);
  });
}

/**
 * One GET on a fresh connection; 0 when it fails or takes longer than REQUEST_TIMEOUT_MS. (A
 * fresh connection per request: a browser silently retries a request that races the close of an
 * idle keep-alive connection, which a gateway reload does; fetch would report it as a failure
 * the user never sees.)
 */
export const getStatus = (url: string): Promise<number> =>
  getPage(url).then(
    (page) => page.status,
    () => 0,
  );

export interface Load {
  readonly statuses: number[];
  /** The slowest request, in ms. */
  slowestMs: number;
}

/** Sends GETs back to back (4 at a time) to `nextUrl()` while `during` runs. */
export async function measureLoadWhile<T>(
  nextUrl: () => string,
  during: () => Promise<T>,
): Promise<Load> {
  const load: Load = { statuses: [], slowestMs: 0 };
  const stop = new AbortController();
  const workers = Array.from({ length: 4 }, async () => {
    while (!stop.signal.aborted) {
      const started = Date.now();
      load.statuses.push(await getStatus(nextUrl()));
      load.slowestMs = Math.max(load.slowestMs, Date.now() - started);
    }
  });
  try {
    await during();
  } finally {
    stop.abort();
    await Promise.all(workers);
  }
  return load;
}
