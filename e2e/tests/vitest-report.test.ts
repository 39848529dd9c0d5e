/**
 * What `npm test` reads from a Vitest run (scripts/test-run/vitest-report.mjs): the counts of its
 * JSON report, and which test files are run again because their worker process died.
 */
import { describe, expect, it } from 'vitest';
import {
  countsOf,
  failureLines,
  filesWhoseWorkerDied,
  isReadLine,
  rerunnable,
  unhandledErrorCount,
} from '../../scripts/test-run/vitest-report.mjs';

const ROOT = '/repo';
const CRASHED = '/repo/services/data/test/metrics.test.ts';

// Vitest's own lines from a run where a fork died while its file tore down, colours included.
const CRASH_OUTPUT = [
  '\x1b[31m\x1b[1mVitest caught 1 unhandled error during the test run.\x1b[22m\x1b[39m',
  '\x1b[31m\x1b[1mCaused by: Error\x1b[22m: Worker exited unexpectedly with signal SIGILL during' +
    ` started state while running test file ${CRASHED}\x1b[39m`,
].join('\n');

const test = (title: string, status: string, failureMessages: string[] = []) => ({
  title,
  fullName: title,
  status,
  failureMessages,
});

// The report of that run: every test of the crashed file passed or was skipped.
const REPORT = {
  testResults: [
    {
      name: CRASHED,
      status: 'failed',
      message: '',
      assertionResults: [test('times calls', 'passed'), test('no listener', 'pending')],
    },
    {
      name: '/repo/packages/web/src/a.test.ts',
      status: 'failed',
      message: '',
      assertionResults: [
        test('renders', 'passed'),
        test('refuses', 'failed', ['AssertionError: expected 413\n  at …']),
      ],
    },
    {
      name: '/repo/packages/web/src/b.test.ts',
      status: 'failed',
      message: 'SyntaxError: Unexpected token',
      assertionResults: [],
    },
  ],
};

describe('the files whose worker died', () => {
  it('are read from Vitest’s words, without its colours', () => {
    expect(filesWhoseWorkerDied(CRASH_OUTPUT)).toEqual([{ file: CRASHED, signal: 'SIGILL' }]);
    expect(unhandledErrorCount(CRASH_OUTPUT)).toBe(1);
  });

  it('are none when no worker died', () => {
    const quiet = ' ✓ web src/a.test.ts (3 tests) 12ms\n Test Files  1 passed (1)';
    expect(filesWhoseWorkerDied(quiet)).toEqual([]);
    expect(unhandledErrorCount(quiet)).toBe(0);
  });

  it('are read the same from the only lines a pass keeps', () => {
    const output = [
      ' ✓ web src/a.test.ts (3 tests) 12ms',
      CRASH_OUTPUT,
      ' Test Files  1 passed (1)',
    ]
      .join('\n')
      .split('\n');
    const kept = output.filter(isReadLine);
    expect(kept).toHaveLength(2);
    expect(filesWhoseWorkerDied(kept.join('\n'))).toEqual([{ file: CRASHED, signal: 'SIGILL' }]);
    expect(unhandledErrorCount(kept.join('\n'))).toBe(1);
  });

  it('are run again only when none of their tests failed', () => {
    const died = [
      { file: CRASHED, signal: 'SIGILL' },
      { file: '/repo/packages/web/src/a.test.ts', signal: 'SIGSEGV' },
      { file: '/repo/not/in/the/report.test.ts', signal: 'SIGILL' },
    ];
    expect(rerunnable(REPORT, died)).toEqual([{ file: CRASHED, signal: 'SIGILL' }]);
  });
});

describe('the counts of a report', () => {
  it('count a file that failed without a failed test as one failure', () => {
    expect(countsOf(REPORT)).toEqual({ passed: 2, failed: 3, skipped: 1 });
  });

  it('leave out the files run again, which count as their second run says', () => {
    expect(countsOf(REPORT, new Set([CRASHED]))).toEqual({ passed: 1, failed: 2, skipped: 0 });
  });

  it('name each failure with its first line, paths from the repository', () => {
    expect(failureLines(REPORT, ROOT, new Set([CRASHED]))).toEqual([
      '  packages/web/src/a.test.ts > refuses: AssertionError: expected 413',
      '  packages/web/src/b.test.ts: SyntaxError: Unexpected token',
    ]);
    expect(failureLines(REPORT, ROOT)).toContain(
      '  services/data/test/metrics.test.ts: no message',
    );
  });
});
