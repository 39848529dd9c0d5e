/**
 * Reads the stack's internal metrics the way a scraper on its networks would: from inside a
 * container (the service images have node and fetch), so nothing has to be published, and
 * nginx's stub_status page (Prometheus text is read with @strata/testing's sampleSum).
 */
import { run } from './compose-stack.js';

// Runs in a service image; argv: url. Prints the body, or fails with the status.
const FETCH = `
fetch(process.argv[1], { signal: AbortSignal.timeout(5000) })
  .then(async (r) => { if (!r.ok) throw new Error(process.argv[1] + ' answered ' + r.status); process.stdout.write(await r.text()); })
  .catch((e) => { console.error(String(e)); process.exit(1); });
`;

/** GETs `url` from inside the container `id` (a render, data or relay container). */
export function fetchInside(id: string, url: string): Promise<string> {
  return run(['docker', 'exec', id, 'node', '-e', FETCH, url]);
}

/** nginx's stub_status counters. */
export interface StubStatus {
  readonly active: number;
  readonly accepts: number;
  readonly handled: number;
  readonly requests: number;
  readonly reading: number;
  readonly writing: number;
  readonly waiting: number;
}

/** Parses the stub_status page; throws when the text is not one. */
export function parseStubStatus(text: string): StubStatus {
  const match =
    /Active connections:\s*(\d+)\s+server accepts handled requests\s+(\d+)\s+(\d+)\s+(\d+)\s+Reading:\s*(\d+)\s+Writing:\s*(\d+)\s+Waiting:\s*(\d+)/.exec(
      text,
    );
  if (!match) throw new Error(`not a stub_status page: ${text.slice(0, 200)}`);
  const [active, accepts, handled, requests, reading, writing, waiting] = match
    .slice(1)
    .map(Number) as [number, number, number, number, number, number, number];
  return { active, accepts, handled, requests, reading, writing, waiting };
}
