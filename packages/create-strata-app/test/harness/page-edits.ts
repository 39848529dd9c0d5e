/**
 * Edits of a scaffolded app's sources while `strata dev` runs, and the wait for the server to
 * serve them.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { within } from './app-process.js';

const HOME_PAGE = 'src/pages/home-page.tsx';
const HEADING = /<h1>[^<]*<\/h1>/;

/** Gives the home page the heading `text`; resolves with the ms until `origin` serves it. */
export async function editHomeHeading(app: string, origin: string, text: string): Promise<number> {
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
