// `npm test`: every workspace's Vitest project, with a container engine for the suites that
// need real PostgreSQL/Redis. Ends with one line `N passed, N failed, N skipped` computed from
// Vitest's JSON report (reports/vitest.json); exits non-zero if anything failed.
import { execSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const report = join(root, 'reports/vitest.json');
const dockerSetup = join(root, '../shared/ci/docker-offline.sh');

function dockerAnswers() {
  return spawnSync('docker', ['info'], { stdio: 'ignore' }).status === 0;
}

if (!dockerAnswers()) {
  if (existsSync(dockerSetup)) {
    console.log(
      '[test] no container engine answers; starting one with ../shared/ci/docker-offline.sh',
    );
    execSync(`bash ${JSON.stringify(dockerSetup)}`, { stdio: 'inherit' });
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
const vitest = spawnSync(
  process.execPath,
  [
    join(root, 'node_modules/vitest/vitest.mjs'),
    'run',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${report}`,
    ...process.argv.slice(2),
  ],
  { cwd: root, env, stdio: 'inherit' },
);

if (!existsSync(report)) {
  console.error('[test] Vitest wrote no JSON report');
  console.log('0 passed, 1 failed');
  process.exit(1);
}
const results = JSON.parse(readFileSync(report, 'utf8'));
const passed = results.numPassedTests ?? 0;
// A file that failed to load counts as one failure even though none of its tests ran.
// (numFailedTestSuites is no help: Vitest counts describe blocks in it, not files.)
const failed = (results.numFailedTests ?? 0) + countFilesFailedWithoutTests(results);
const skipped = (results.numPendingTests ?? 0) + (results.numTodoTests ?? 0);
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(vitest.status === 0 && failed === 0 ? 0 : 1);

function countFilesFailedWithoutTests(json) {
  return (json.testResults ?? []).filter(
    (file) =>
      file.status === 'failed' &&
      !(file.assertionResults ?? []).some((test) => test.status === 'failed'),
  ).length;
}
