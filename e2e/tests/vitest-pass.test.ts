/**
 * A pass of `npm test` (scripts/test-run/vitest-pass.mjs) when a test file's worker dies of a
 * signal after its tests passed: the file is run once more and counts as that run says; a file
 * that dies again is a failure.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { vitestPass } from '../../scripts/test-run/vitest-pass.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const FIXTURE = ['--config', 'e2e/fixtures/worker-death/vitest.config.mjs'];
const folders: string[] = [];

afterEach(() => {
  vi.restoreAllMocks();
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/**
 * Runs the fixture's pass with `envIn(folder)` added, `folder` a temporary one of its own; what
 * it resolved with and what it said.
 */
async function passOfFixture(envIn: (folder: string) => Record<string, string>) {
  const folder = mkdtempSync(join(tmpdir(), 'strata-vitest-pass-'));
  folders.push(folder);
  const env = envIn(folder);
  // The pass echoes Vitest's output and says what it reran: kept here, not in this test's log.
  const said: string[] = [];
  vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  vi.spyOn(console, 'log').mockImplementation((line: string) => void said.push(line));
  vi.spyOn(console, 'error').mockImplementation((line: string) => void said.push(line));
  const pass = await vitestPass({
    root,
    env: { ...process.env, ...env },
    name: 'fixture',
    report: join(folder, 'report.json'),
    args: FIXTURE,
  });
  return { pass, said };
}

describe('a test file whose worker died of a signal', () => {
  it('is run once more, and counts as that run says', async () => {
    const { pass, said } = await passOfFixture((folder) => ({
      WORKER_DEATH_MARKER: join(folder, 'died'),
    }));
    expect(said).toContain(
      '[test] e2e/fixtures/worker-death/dies-after.fixture.mjs: its worker died of SIGILL; running it again',
    );
    expect(pass).toMatchObject({ passed: 1, failed: 0, skipped: 0, ok: true, failures: [] });
    expect(pass.reruns).toEqual(['  e2e/fixtures/worker-death/dies-after.fixture.mjs (SIGILL)']);
  });

  it('fails the pass when it dies again', async () => {
    const { pass } = await passOfFixture(() => ({}));
    // Its worker died before it reported the test, which Vitest's report then calls pending.
    expect(pass).toMatchObject({ passed: 0, failed: 1, ok: false });
    expect(pass.failures).toEqual([
      expect.stringMatching(/^ {2}e2e\/fixtures\/worker-death\/dies-after\.fixture\.mjs: /),
    ]);
  });
});
