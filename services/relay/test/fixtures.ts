/** Loads the SDK fixtures captured by test/fixtures/generate-*-fixtures.mjs. */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const dir = fileURLToPath(new URL('./fixtures/sdk/', import.meta.url));

/** One captured envelope with what the SDK sent alongside it. */
export interface SdkFixture {
  readonly name: string;
  readonly body: Buffer;
  readonly url: string;
  readonly contentType: string | null;
  readonly header: Record<string, unknown>;
}

/** Every fixture whose name starts with `prefix`. */
export function sdkFixtures(prefix: string): SdkFixture[] {
  return readdirSync(dir)
    .filter((name) => name.startsWith(prefix) && name.endsWith('.envelope'))
    .sort()
    .map((file) => {
      const name = file.replace(/\.envelope$/, '');
      const body = readFileSync(`${dir}${file}`);
      const meta = JSON.parse(readFileSync(`${dir}${name}.meta.json`, 'utf8')) as {
        url: string;
        contentType: string | null;
      };
      const header = JSON.parse(body.subarray(0, body.indexOf(10)).toString('utf8')) as Record<
        string,
        unknown
      >;
      return { name, body, url: meta.url, contentType: meta.contentType, header };
    });
}

/** The fixture with this exact name. */
export function sdkFixture(name: string): SdkFixture {
  const found = sdkFixtures(name).find((fixture) => fixture.name === name);
  if (!found) throw new Error(`no fixture ${name}`);
  return found;
}

/** The DSN the @sentry/browser fixtures were sent with (their envelope headers name it). */
export const BROWSER_DSN = String(sdkFixture('browser-00-session').header.dsn);
/** A DSN of the @sentry/node fixtures' project (42) and key (their URLs name both, not a DSN). */
export const NODE_DSN = 'http://node0public0key@127.0.0.1:9/42';
