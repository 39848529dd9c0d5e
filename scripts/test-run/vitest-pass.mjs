// One Vitest pass of `npm test` (scripts/run-tests.mjs): Vitest run with a JSON report, its
// output passed through (the few lines vitest-report.mjs reads kept), then read into counts
// and failures.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { createInterface } from 'node:readline';
import {
  countsOf,
  failureLines,
  filesWhoseWorkerDied,
  isReadLine,
  rerunnable,
  unhandledErrorCount,
} from './vitest-report.mjs';

/** Runs Vitest once with a JSON report; resolves with its exit status and the lines it keeps. */
function vitest({ root, env, report, args }) {
  const child = spawn(
    process.execPath,
    [
      join(root, 'node_modules/vitest/vitest.mjs'),
      'run',
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${report}`,
      ...args,
    ],
    { cwd: root, env, stdio: ['inherit', 'pipe', 'pipe'] },
  );
  const kept = [];
  const pass = (stream, to) => {
    stream.on('data', (chunk) => to.write(chunk));
    createInterface({ input: stream, crlfDelay: Infinity }).on('line', (line) => {
      if (isReadLine(line)) kept.push(line);
    });
  };
  pass(child.stdout, process.stdout);
  pass(child.stderr, process.stderr);
  return new Promise((resolve) =>
    child.on('close', (status) => resolve({ status: status ?? 1, output: kept.join('\n') })),
  );
}

/**
 * One Vitest pass: its counts and failures (a missing report fails). A test file whose worker
 * died of a signal while every test in it that ran passed is run once more, and counts as that
 * second run says (docs/development.md, "CI": node's WebAssembly code bookkeeping can abort a
 * process that frees PGlite's engine). Only once: a second crash is a failure.
 *
 * `root`: the repository; `env`: Vitest's environment; `name`: the pass's name in the summary;
 * `report`: where its JSON report goes; `args`: Vitest's arguments after `run`.
 */
export async function vitestPass({ root, env, name, report, args, rerunCrashed = true }) {
  rmSync(report, { force: true });
  const { status, output } = await vitest({ root, env, report, args });
  if (!existsSync(report)) {
    console.error(`[test] ${name}: Vitest wrote no JSON report`);
    return { name, passed: 0, failed: 1, skipped: 0, ok: false, failures: ['  no JSON report'] };
  }
  const json = JSON.parse(readFileSync(report, 'utf8'));
  const crashed = rerunCrashed ? rerunnable(json, filesWhoseWorkerDied(output)) : [];
  const without = new Set(crashed.map(({ file }) => file));
  const counted = countsOf(json, without);
  // An error outside every test (global setup, an unhandled error) other than the workers that
  // died still counts as one failure, so the summary line never says "0 failed" for a failing run.
  const unexplained =
    status !== 0 && (crashed.length === 0 || unhandledErrorCount(output) > crashed.length);
  const outside = counted.failed === 0 && unexplained ? 1 : 0;
  if (outside) console.error(`[test] ${name}: Vitest failed outside the tests`);
  const first = {
    name,
    ...counted,
    failed: counted.failed + outside,
    ok: counted.failed + outside === 0,
    failures: [
      ...failureLines(json, root, without),
      ...(outside
        ? ['  outside the tests: an unhandled error (see Vitest\'s "Errors" above)']
        : []),
    ],
  };
  if (crashed.length === 0) return first;
  for (const { file, signal } of crashed)
    console.log(`[test] ${relative(root, file)}: its worker died of ${signal}; running it again`);
  const again = await vitestPass({
    root,
    env,
    name: `${name}, run again after a worker died`,
    report: report.replace(/\.json$/, '.rerun.json'),
    args: [...args, ...crashed.map(({ file }) => relative(root, file))],
    rerunCrashed: false,
  });
  return {
    ...first,
    passed: first.passed + again.passed,
    failed: first.failed + again.failed,
    skipped: first.skipped + again.skipped,
    ok: first.ok && again.ok,
    failures: [...first.failures, ...again.failures],
    reruns: crashed.map(({ file, signal }) => `  ${relative(root, file)} (${signal})`),
  };
}
