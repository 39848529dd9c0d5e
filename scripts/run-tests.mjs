// `npm test`: every workspace's Vitest project, with a container engine for the suites that
// need real PostgreSQL/Redis. Ends with one line `N passed, N failed, N skipped` computed from
// Vitest's JSON report (reports/vitest.json); exits non-zero if anything failed.
import { execSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { requireRuntime } from './stack/runtime.mjs';
import { vitestPass } from './test-run/vitest-pass.mjs';

requireRuntime('npm test');

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const report = join(root, 'reports/vitest.json');
const offlineEngine = join(root, '../shared/ci/docker-offline.sh');

function dockerAnswers() {
  return spawnSync('docker', ['info'], { stdio: 'ignore' }).status === 0;
}

if (!dockerAnswers()) {
  if (existsSync(offlineEngine)) {
    console.log(
      '[test] no container engine answers; starting one with ../shared/ci/docker-offline.sh',
    );
    // The service images build FROM node:<runtime major>-bookworm-slim, this node's line.
    const nodeAndEngine = [process.execPath, offlineEngine].map((path) => JSON.stringify(path));
    execSync(`bash infra/node/offline-images.sh ${nodeAndEngine.join(' ')}`, {
      cwd: root,
      stdio: 'inherit',
    });
  } else {
    console.error(
      '[test] the PostgreSQL and Redis suites need a Docker engine; start one and retry.',
    );
    process.exit(1);
  }
}

const env = {
  ...process.env,
  TESTCONTAINERS_HOST_OVERRIDE: process.env.TESTCONTAINERS_HOST_OVERRIDE ?? '127.0.0.1',
};
mkdirSync(dirname(report), { recursive: true });
const runVitest = (name, reportFile, args) =>
  vitestPass({ root, env, name, report: reportFile, args });

const args = process.argv.slice(2);
const fullRun = args.length === 0;
// The app-developer tests (scaffold, install, `strata dev` serving an edit within 2 s) run after
// the rest, one file at a time: on a 2-core machine beside ~240 other files, the 2 s is the
// machine's load, not the dev loop.
const APP_PROJECT = 'create-strata-app';
const runs = [
  await runVitest(
    'unit, integration and browser tests',
    report,
    fullRun ? [`--project=!${APP_PROJECT}`] : args,
  ),
];
// The bench tools and the drift guard run next, one short round each on the built tree: each
// loads two service pairs flat out, so they too run alone (bench/vitest.smoke.config.ts).
if (fullRun) {
  runs.push(
    await runVitest('app developer tests', join(root, 'reports/app-developer.json'), [
      `--project=${APP_PROJECT}`,
      '--no-file-parallelism',
    ]),
  );
  runs.push(
    await runVitest('benchmark smoke tests', join(root, 'reports/bench-smoke.json'), [
      '--config',
      'bench/vitest.smoke.config.ts',
    ]),
  );
}
// The production topology (images, docker-compose, drills) takes minutes: part of every full
// run (and of CI), skipped when a project is named on the command line or with
// STRATA_COMPOSE_TESTS=0 for quick local loops.
// The Swarm pass follows it (a two-node cluster on this machine, which puts the engine into a
// swarm while it runs, so nothing else shares the engine then).
if (fullRun && process.env.STRATA_COMPOSE_TESTS !== '0') {
  runs.push(
    await runVitest('compose tests', join(root, 'reports/compose.json'), [
      '--config',
      'e2e/vitest.compose.config.ts',
    ]),
  );
  runs.push(
    await runVitest('swarm tests', join(root, 'reports/swarm.json'), [
      '--config',
      'e2e/vitest.swarm.config.ts',
    ]),
  );
}

const total = runs.reduce(
  (sum, r) => ({
    passed: sum.passed + r.passed,
    failed: sum.failed + r.failed,
    skipped: sum.skipped + r.skipped,
  }),
  { passed: 0, failed: 0, skipped: 0 },
);
for (const run of runs) {
  if (run.reruns)
    console.log(`[test] ${run.name}, run again after their worker died:\n${run.reruns.join('\n')}`);
  if (run.failures.length > 0)
    console.log(`[test] ${run.name}, failed:\n${run.failures.join('\n')}`);
}
console.log(`${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`);
process.exit(runs.every((r) => r.ok) ? 0 : 1);
