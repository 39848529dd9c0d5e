/**
 * `strata build` and `strata start` on a freshly scaffolded app, run against this repository's
 * packages (the app's node_modules is a link to the repository's; the render service's dist must
 * be built). The consumer test does the same from tarballs; this one is the quick loop. Also the
 * CLI's refusals: an unknown command, a folder that is no app, a start before a build, a port
 * in use.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scaffold } from '../src/scaffold.js';
import { startStrata, within, type AppProcess } from './harness/app-process.js';
import { childrenOf, commandLineOf, isRunning } from './harness/child-processes.js';
import { postMessage, readStreamed } from './harness/app-requests.js';
import { editHomeHeading, editSource } from './harness/page-edits.js';

const run = promisify(execFile);
const repository = fileURLToPath(new URL('../../../', import.meta.url));
const strata = join(repository, 'node_modules/.bin/strata');
const folder = mkdtempSync(join(tmpdir(), 'strata-commands-'));
const app = join(folder, 'my-app');
const env = { PATH: process.env['PATH'], HOME: process.env['HOME'], LOG_LEVEL: 'warn' };

/** Runs strata in `cwd`; resolves with its exit code and output, whatever the code. */
function strataIn(cwd: string, args: string[]) {
  return run(strata, args, { cwd, env }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => error,
  );
}

beforeAll(() => {
  scaffold({ target: app });
  symlinkSync(join(repository, 'node_modules'), join(app, 'node_modules'));
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('strata build and strata start', () => {
  let server: AppProcess;

  let beforeBuild: Awaited<ReturnType<typeof strataIn>>;
  let built: Awaited<ReturnType<typeof strataIn>>;

  beforeAll(async () => {
    beforeBuild = await strataIn(app, ['start']);
    built = await strataIn(app, ['build']);
    server = await startStrata([strata], 'start', app, env);
  });
  afterAll(() => server?.stop());

  it('builds (and refuses to start before it has)', () => {
    expect(beforeBuild.code).toBe(1);
    expect(beforeBuild.stderr).toContain('has no build: run `strata build` first.');
    expect(built.stderr).toBe('');
    expect(built.stdout).toMatch(
      /strata build: my-app: 10 files compiled to dist\/, client bundle \/assets\/client-\w+\.js/,
    );
  });

  it('streams /slow: the loading view first, then the page, then its deferred part', async () => {
    const { chunks } = await readStreamed(`${server.origin}/slow`);
    const html = chunks.map((chunk) => chunk.text).join('');
    const at = (text: string) => chunks.find((chunk) => chunk.text.includes(text))?.at ?? -1;
    expect(html).toContain('Loading the streamed page…');
    expect(html).toContain('Sunny, with a chance of streamed HTML.');
    expect(at('Loading the streamed page…')).toBeLessThan(at('Rendered at'));
    expect(at('Rendered at')).toBeLessThanOrEqual(at('Sunny, with a chance'));
  });

  it('runs the action posted by a form and shows its result', async () => {
    const posted = await postMessage(server.origin, 'Posted by a test');
    expect(posted.status).toBe(303);
    expect(posted.headers.get('location')).toBe('/');
    expect(await (await fetch(`${server.origin}/`)).text()).toContain('Posted by a test');
  });

  it('refuses an action with the schema’s message', async () => {
    const posted = await postMessage(server.origin, '   ');
    expect(await posted.text()).toContain('Write a message');
  });

  it('is production: the error screen shows no stack and there is no dev script', async () => {
    const html = await (await fetch(`${server.origin}/`)).text();
    expect(html).not.toContain('__strata/dev');
  });

  it('runs the service with the node flags its image runs it with', () => {
    const [service] = childrenOf(server.child.pid!);
    expect(commandLineOf(service!)).toContain('--no-memory-reducer');
  });
});

describe('strata start ends with its service', () => {
  /** A started server and the pid of the service it runs. */
  async function started() {
    const server = await startStrata([strata], 'start', app, env);
    const [service] = childrenOf(server.child.pid!);
    return { server, service: service! };
  }
  const exitOf = (server: AppProcess) =>
    new Promise<number | null>((resolve) => {
      if (server.child.exitCode !== null) resolve(server.child.exitCode);
      else server.child.once('exit', (code) => resolve(code));
    });

  it('stops the service gracefully on a SIGTERM sent to strata alone, and exits 0', async () => {
    const { server, service } = await started();
    try {
      process.kill(server.child.pid!, 'SIGTERM');
      expect(await exitOf(server)).toBe(0);
      expect(isRunning(service)).toBe(false);
    } finally {
      await server.stop();
    }
  });

  it('stops the service when strata is killed outright', async () => {
    const { server, service } = await started();
    try {
      expect(isRunning(service)).toBe(true);
      process.kill(server.child.pid!, 'SIGKILL');
      await within(5000, async () => !isRunning(service));
      expect(isRunning(service)).toBe(false);
    } finally {
      if (isRunning(service)) process.kill(service, 'SIGKILL');
      await server.stop();
    }
  });
});

describe('strata dev', () => {
  let server: AppProcess;

  beforeAll(async () => {
    server = await startStrata([strata], 'dev', app, env);
  });
  afterAll(() => server?.stop());

  it('serves pages with the dev script, which production pages never carry', async () => {
    const html = await (await fetch(`${server.origin}/`)).text();
    expect(html).toMatch(/<script nonce="[^"]+">\(function devClient/);
    expect(html).toContain('/__strata/dev-events?request=');
  });

  // The machine running the tests may be busy: a slow edit is tried again with a new one.
  it('serves an edited page within 2 s', { retry: 2 }, async () => {
    const ms = await editHomeHeading(server, app, `Edited at ${Date.now()}`);
    expect(ms).toBeLessThan(2000);
  });

  it('shows a build error on the page and recovers when it is fixed', async () => {
    editSource(
      app,
      'src/messages.ts',
      'export class MessageBoard {',
      'export class MessageBoard {{',
    );
    try {
      await expect
        .poll(async () => (await fetch(`${server.origin}/`)).status, { timeout: 10_000 })
        .toBe(500);
      const page = await (await fetch(`${server.origin}/`)).text();
      expect(page).toContain('Build failed');
      expect(page).toContain('src/messages.ts:');
      expect(server.output()).toContain('strata dev: build failed');
    } finally {
      editSource(
        app,
        'src/messages.ts',
        'export class MessageBoard {{',
        'export class MessageBoard {',
      );
    }
    await expect
      .poll(async () => (await fetch(`${server.origin}/`)).status, { timeout: 10_000 })
      .toBe(200);
  });

  it('sends a loader’s error, with its stack, to the page that caused it', async () => {
    const broken = "throw new Error('the slow loader broke');\n    const servedAt";
    editSource(app, 'src/pages/slow-page.tsx', 'const servedAt', broken);
    try {
      let requestId = '';
      await expect
        .poll(
          async () => {
            const html = await (await fetch(`${server.origin}/slow`)).text();
            requestId = /dev-events\?request=([0-9a-f]+)/.exec(html)?.[1] ?? '';
            return (
              html.includes('the slow loader broke') ||
              server.output().includes('the slow loader broke')
            );
          },
          { timeout: 10_000 },
        )
        .toBe(true);
      const events = await fetch(`${server.origin}/__strata/dev-events?request=${requestId}`);
      const reader = events.body!.getReader();
      let text = '';
      while (!text.includes('event: problem'))
        text += new TextDecoder().decode((await reader.read()).value);
      await reader.cancel();
      expect(text).toContain('the slow loader broke');
      expect(text).toContain('slow-page.js');
    } finally {
      editSource(app, 'src/pages/slow-page.tsx', broken, 'const servedAt');
    }
  });
});

describe('strata refuses', () => {
  it('an unknown command or flag, with the usage', async () => {
    const result = await strataIn(app, ['serve']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('strata: Unknown command "serve"');
    expect(result.stderr).toContain('Usage: strata <command>');
  });

  it('a folder that is not an app', async () => {
    const result = await strataIn(folder, ['build']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`${folder} is not an app folder: it has no package.json`);
  });

  it('a port in use', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as { port: number };
    try {
      const result = await strataIn(app, ['start', '--port', String(port)]);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(`Port ${port} is in use`);
    } finally {
      taken.close();
    }
  });
});
