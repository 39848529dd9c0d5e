/**
 * Edits of a scaffolded app's sources while `strata dev` runs, and the wait for the server to
 * serve them.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { within, type AppProcess } from './app-process.js';

// How many times each dev server said it was ready, when last edited.
const readies = new WeakMap<AppProcess, number>();

const HOME_PAGE = 'src/pages/home-page.tsx';
const HEADING = /<h1>[^<]*<\/h1>/;

const READY = 'strata dev: ready for the next change';

/**
 * Gives the home page the heading `text` once `strata dev` is ready for a change (its next
 * server loaded, as between two edits by hand); resolves with the ms until `origin` serves it.
 */
export async function editHomeHeading(
  server: AppProcess,
  app: string,
  text: string,
): Promise<number> {
  await within(
    30_000,
    async () => server.output().split(READY).length - 1 > (readies.get(server) ?? 0),
  );
  readies.set(server, server.output().split(READY).length - 1);
  const origin = server.origin;
  const file = join(app, HOME_PAGE);
  writeFileSync(file, readFileSync(file, 'utf8').replace(HEADING, `<h1>${text}</h1>`));
  const edited = Date.now();
  await within(10_000, async () => (await (await fetch(`${origin}/`)).text()).includes(text));
  return Date.now() - edited;
}

/** Replaces `from` with `to` in the app's file `path`. */
export function editSource(app: string, path: string, from: string, to: string): void {
  const file = join(app, path);
  const text = readFileSync(file, 'utf8');
  if (!text.includes(from)) throw new Error(`${path} has no ${from}`);
  writeFileSync(file, text.replace(from, to));
}
