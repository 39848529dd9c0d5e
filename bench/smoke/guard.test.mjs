import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO } from '../kit/out.mjs';
import { VERDICTS } from '../kit/verdict.mjs';
import * as relay from '../relay/scenario.mjs';
import * as render from '../render/scenario.mjs';
import { endOf, outputFolders, runTool, unreadMetrics } from './run-tool.mjs';

// The drift guard end to end against this checkout's own commit: the baseline is extracted,
// installed and built into a cache of its own (as on a machine that never ran the guard), the
// working tree rebuilt, both scenarios run for one short round, then a second run reuses the
// cached baseline.
const cache = mkdtempSync(join(tmpdir(), 'strata-guard-smoke-'));
const env = { STRATA_BENCH_CACHE: cache };
const head = execFileSync('git', ['-C', REPO, 'rev-parse', 'HEAD'], { encoding: 'utf8' }).trim();
const outputs = outputFolders();
outputs.kept(cache);
afterAll(outputs.removeAll);

/** The guard's raw output folder, as its last line names it. */
function rawOutputOf(stdout) {
  const line = /^raw output: (bench\/\.out\/[^/\s]+)\/$/m;
  expect(stdout).toMatch(line);
  return outputs.kept(join(REPO, line.exec(stdout)[1]));
}

describe('npm run bench:guard', () => {
  const short = ['--baseline', 'HEAD', '--rounds', '1', '--duration', '1'];

  it('builds the baseline once, compares every metric of both scenarios and says what it saw', async () => {
    const run = await runTool('bench/guard.mjs', { args: short, env });
    expect(endOf(run)).toEqual({ status: 0 });
    const extracted = /^\[guard\] baseline [0-9a-f]{7}: extracting into (.+)$/m;
    expect(run.stdout).toMatch(extracted);
    expect(existsSync(join(extracted.exec(run.stdout)[1], '.strata-bench-ready'))).toBe(true);

    // One verdict line per metric; one round cannot decide.
    for (const scenario of [render, relay])
      for (const { label } of scenario.metrics)
        expect(run.stdout).toContain(`${scenario.name} ${label}: `);
    const verdicts = run.stdout.split('\n').filter((line) => line.includes('× baseline'));
    expect(verdicts).toHaveLength(render.metrics.length + relay.metrics.length);
    for (const line of verdicts) expect(line).toMatch(new RegExp(`: ${VERDICTS.unclear}$`));

    const raw = rawOutputOf(run.stdout);
    for (const scenario of [render, relay]) {
      const record = JSON.parse(readFileSync(join(raw, `${scenario.name}.json`), 'utf8'));
      expect(record.sides.A).toBe(`baseline ${head}`);
      const keys = scenario.metrics.map((metric) => metric.key);
      expect(unreadMetrics(record.rounds, keys)).toEqual([]);
    }
  });

  it('reuses the built baseline on the next run', async () => {
    const run = await runTool('bench/guard.mjs', {
      args: [...short, '--scenario', 'relay'],
      env,
    });
    expect(endOf(run)).toEqual({ status: 0 });
    expect(run.stdout).toMatch(/^\[guard\] baseline [0-9a-f]{7}: reusing /m);
    expect(run.stdout).not.toContain('extracting');
    rawOutputOf(run.stdout);
  });

  it('refuses a baseline that is not a commit, and options it does not know, before building anything', async () => {
    const unknown = await runTool('bench/guard.mjs', {
      args: ['--baseline', 'no-such-release'],
      env,
    });
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toContain('baseline no-such-release is not a commit in this repository');
    expect(unknown.stdout).not.toContain('npm run build');

    const option = await runTool('bench/guard.mjs', { args: ['--rounds', '0'], env });
    expect(option.status).toBe(64);
    expect(option.stderr).toContain('--rounds: 0 is out of range');
    expect(option.stderr).toContain('usage: npm run bench:guard');
  });
});
