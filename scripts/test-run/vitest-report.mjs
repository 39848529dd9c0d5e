// What `npm test` reads from a Vitest run: the counts and failures of its JSON report, and the
// test files whose worker process died of a signal. Pure: vitest-pass.mjs runs Vitest and
// reads its output with these.
import { relative } from 'node:path';
import { stripVTControlCharacters } from 'node:util';

// Vitest's words when a fork running a test file is killed by a signal (a crash of the runtime).
const WORKER_DIED =
  /Worker exited unexpectedly with signal (SIG[A-Z0-9]+) during \w+ state while running test file (\S+)/g;
// The same words as a test of one line (a /g pattern's test() would carry its lastIndex along).
const WORKER_DIED_LINE = new RegExp(WORKER_DIED.source);
const UNHANDLED = /Vitest caught (\d+) unhandled errors?/;

/**
 * Whether a line of Vitest's output is one the readers below need: a pass keeps only these,
 * since its whole output can run to megabytes.
 */
export function isReadLine(line) {
  const plain = stripVTControlCharacters(line);
  return WORKER_DIED_LINE.test(plain) || UNHANDLED.test(plain);
}

/** The test files (absolute paths) whose worker died of a signal, with that signal. */
export function filesWhoseWorkerDied(output) {
  const died = new Map();
  for (const [, signal, file] of stripVTControlCharacters(output).matchAll(WORKER_DIED))
    died.set(file, signal);
  return [...died].map(([file, signal]) => ({ file, signal }));
}

/**
 * The files that are worth one more run after their worker died: every test in them that ran
 * passed (the crash came outside the tests, e.g. while the file tore down). A file with a failed
 * test keeps its failure.
 */
export function rerunnable(json, died) {
  return died.filter(({ file }) => {
    const result = (json.testResults ?? []).find((entry) => entry.name === file);
    return result !== undefined && failedTests(result).length === 0;
  });
}

/**
 * Passed, failed and skipped tests of a report, leaving out the files in `without`. A file that
 * failed with no failed test (it did not load, a hook threw, its worker died) counts as one
 * failure, so a failing run never reads "0 failed".
 */
export function countsOf(json, without = new Set()) {
  const counts = { passed: 0, failed: 0, skipped: 0 };
  for (const file of json.testResults ?? []) {
    if (without.has(file.name)) continue;
    for (const test of file.assertionResults ?? []) {
      if (test.status === 'passed') counts.passed += 1;
      else if (test.status === 'failed') counts.failed += 1;
      else counts.skipped += 1;
    }
    if (file.status === 'failed' && failedTests(file).length === 0) counts.failed += 1;
  }
  return counts;
}

/**
 * Every failed test (and every file that failed without one) with the first line of its
 * message, paths relative to `root`: printed beside the summary, so the end of a long CI log
 * says what failed.
 */
export function failureLines(json, root, without = new Set()) {
  const lines = [];
  for (const file of json.testResults ?? []) {
    if (without.has(file.name)) continue;
    const where = relative(root, file.name ?? '');
    const failed = failedTests(file);
    for (const test of failed)
      lines.push(`  ${where} > ${test.fullName}: ${firstLine(test.failureMessages?.[0])}`);
    if (file.status === 'failed' && failed.length === 0)
      lines.push(`  ${where}: ${firstLine(file.message)}`);
  }
  return lines;
}

function failedTests(file) {
  return (file.assertionResults ?? []).filter((test) => test.status === 'failed');
}

function firstLine(message) {
  return (message || 'no message').trim().split('\n')[0].slice(0, 300);
}

/** How many unhandled errors Vitest said it caught (0 when it said nothing). */
export function unhandledErrorCount(output) {
  const said = UNHANDLED.exec(stripVTControlCharacters(output));
  return said ? Number(said[1]) : 0;
}
