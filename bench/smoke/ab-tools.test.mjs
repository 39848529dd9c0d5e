import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import * as cacheStore from '../cache/store-scenario.mjs';
import * as codecs from '../data/codec-scenario.mjs';
import { OUT_ROOT } from '../kit/out.mjs';
import { VERDICTS } from '../kit/verdict.mjs';
import * as relay from '../relay/scenario.mjs';
import * as render from '../render/scenario.mjs';
import { endOf, outputFolders, runTool, unreadMetrics } from './run-tool.mjs';

// Every A/B tool, one short run of this checkout against itself: each starts its services,
// loads them, reads the metrics and writes its report, as a longer run would.
const RUN = `smoke-${process.pid}`;
const outputs = outputFolders();
const outputOf = (name) => outputs.kept(join(OUT_ROOT, name));
afterAll(outputs.removeAll);

const AB_TOOLS = [
  // Two sessions of one round each, both sides loaded at once: the guard's render settings.
  {
    script: 'bench/render/ab-pairs.mjs',
    scenario: render,
    env: { ROUNDS: '2', DURATION: '1', TOGETHER: '1', RESTART_EVERY: '1' },
  },
  { script: 'bench/relay/ab-pairs.mjs', scenario: relay, env: { ROUNDS: '1', DURATION: '1' } },
  { script: 'bench/cache/store-ab.mjs', scenario: cacheStore, env: { ROUNDS: '1', DURATION: '1' } },
  { script: 'bench/data/codec-ab.mjs', scenario: codecs, env: { ROUNDS: '1', DURATION: '0.2' } },
];

describe.each(AB_TOOLS)('$script', ({ script, scenario, env }) => {
  it("measures this build against itself and reports each of its scenario's metrics", async () => {
    const name = `${RUN}-${scenario.name}`;
    const run = await runTool(script, { env: { ...env, NAME: name } });
    expect(endOf(run)).toEqual({ status: 0 });

    const record = JSON.parse(readFileSync(join(outputOf(name), 'ab.json'), 'utf8'));
    const keys = scenario.metrics.map((metric) => metric.key);
    expect(record.summaries.map((summary) => summary.key)).toEqual(keys);
    expect(record.rounds).toHaveLength(Number(env.ROUNDS));
    expect(unreadMetrics(record.rounds, keys)).toEqual([]);
    // Fewer than three rounds never decide, whatever they read.
    for (const summary of record.summaries)
      expect(run.stdout).toMatch(
        new RegExp(
          `^${scenario.name} ${literal(summary.label)}: [\\d.]+× A .*: ${VERDICTS.unclear}$`,
          'm',
        ),
      );
  });
});

describe('the A/B settings', () => {
  it('are refused before anything starts when a scenario cannot take them', async () => {
    const together = await runTool('bench/cache/store-ab.mjs', { env: { TOGETHER: '1' } });
    expect(together.status).toBe(64);
    expect(together.stderr).toContain('[cache-store] TOGETHER=1:');

    const rounds = await runTool('bench/relay/ab-pairs.mjs', { env: { ROUNDS: 'two' } });
    expect(rounds.status).toBe(64);
    expect(rounds.stderr).toMatch(/^\[relay\] .*ROUNDS/m);
  });
});

describe('bench/render/profile-ab.mjs', () => {
  it("profiles both builds' services under the same load and compares their time per page", async () => {
    const name = `${RUN}-profile-ab`;
    const run = await runTool('bench/render/profile-ab.mjs', {
      env: { ROUNDS: '1', DURATION: '1', NAME: name },
    });
    expect(endOf(run)).toEqual({ status: 0 });
    const report = readFileSync(join(outputOf(join('render', name)), 'profile-ab.md'), 'utf8');
    // The render service, then the data service; a short profiled second on a busy machine can
    // take a millisecond or more per request.
    const busy = [
      ...report.matchAll(
        /^Main thread busy per request: A (\d+\.\d+) ms, B (\d+\.\d+) ms .*; [1-9]\d* and [1-9]\d* requests profiled\)/gm,
      ),
    ];
    expect(busy).toHaveLength(2);
    for (const [, a, b] of busy) expect([Number(a), Number(b)].every((ms) => ms > 0)).toBe(true);
  });
});

describe('bench/render/rotation.mjs', () => {
  it('loads several builds in turn and gives each one ratio per metric to the reference', async () => {
    const name = `${RUN}-rotation`;
    const run = await runTool('bench/render/rotation.mjs', {
      env: { ROOTS: 'first:.,second:.', ROUNDS: '1', DURATION: '1', NAME: name },
    });
    expect(endOf(run)).toEqual({ status: 0 });
    const report = readFileSync(join(outputOf(join('render', name)), 'rotation.md'), 'utf8');
    expect(report).toMatch(/^\| first \| 1\.000 .*\| 1\.000 .*\| 1\.000 .*\|$/m);
    expect(report).toMatch(/^\| second \| \d\.\d{3} .*\| \d\.\d{3} .*\| \d\.\d{3} .*\|$/m);
  });
});

describe('bench/render/like-for-like.mjs', () => {
  it('loads the minimal renderer and the render service in turn and gives their ratio', async () => {
    const name = `${RUN}-like-for-like`;
    const run = await runTool('bench/render/like-for-like.mjs', {
      env: { SIDES: 'minimal,strata', ROUNDS: '1', DURATION: '1', NAME: name },
    });
    expect(endOf(run)).toEqual({ status: 0 });
    const report = readFileSync(join(outputOf(join('render', name)), 'like-for-like.md'), 'utf8');
    expect(report).toMatch(/^\| minimal \| 1\.000 .*\| 1\.000 .*\|$/m);
    expect(report).toMatch(/^\| strata \| \d\.\d{3} .*\| \d\.\d{3} .*\|$/m);
    // Both served pages; only Strata's data service worked for them. The minimal renderer's idle
    // one may still be charged a stray clock tick (10 ms) over a one-second run.
    const absolute = (label) => {
      const row = report.match(
        new RegExp(`^\\| ${label} \\| (\\d+) \\| (\\d+\\.\\d{3}) \\| (\\d+\\.\\d{3}) \\|$`, 'm'),
      );
      expect(row, `${label}'s row in\n${report}`).not.toBeNull();
      return { pages: Number(row[1]), renderCpuMs: Number(row[2]), dataCpuMs: Number(row[3]) };
    };
    const minimal = absolute('minimal');
    const strata = absolute('strata');
    expect(minimal.pages).toBeGreaterThan(0);
    expect(strata.pages).toBeGreaterThan(0);
    expect(minimal.renderCpuMs).toBeGreaterThan(0);
    expect(strata.dataCpuMs).toBeGreaterThan(0);
    expect(minimal.dataCpuMs).toBeLessThan(strata.dataCpuMs / 4);
  });

  it('refuses a side it does not know, naming the ones it does', async () => {
    const run = await runTool('bench/render/like-for-like.mjs', {
      env: { SIDES: 'minimal,nextjs' },
    });
    expect(run.status).toBe(64);
    expect(run.stderr).toContain('no side "nextjs"; the sides are minimal, minimal+hydration');
  });
});

describe('bench/render/gc-stats.mjs', () => {
  it("reads each renderer's scavenges from its --trace-gc-nvp output under load", async () => {
    const name = `${RUN}-gc-stats`;
    const run = await runTool('bench/render/gc-stats.mjs', {
      env: { SIDES: 'minimal,strata', RUNS: '1', WARMUP: '1', DURATION: '2', NAME: name },
    });
    expect(endOf(run)).toEqual({ status: 0 });
    const dir = outputOf(join('render', name));
    const rows = JSON.parse(readFileSync(join(dir, 'gc-stats.json'), 'utf8'));
    expect(rows.map((row) => row.label)).toEqual(['minimal', 'strata']);
    // Each served pages, scavenged at least once under load, and something survived each time.
    for (const row of rows) {
      expect(row.pagesPerSecond).toBeGreaterThan(0);
      expect(row.renderCpuMs).toBeGreaterThan(0);
      expect(row.scavenges).toBeGreaterThan(0);
      expect(row.survivedMb).toBeGreaterThan(0);
      expect(row.newSpaceMb).toBeGreaterThan(0);
      expect(row.idleRssMiB).toBeGreaterThan(0);
      expect(row.loadedRssMiB).toBeGreaterThan(0);
    }
    expect(readFileSync(join(dir, 'gc-stats.md'), 'utf8')).toMatch(/^\| 1 \| strata \| \d+ \|/m);
  });
});

/** `text` matched literally inside a regular expression. */
function literal(text) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
