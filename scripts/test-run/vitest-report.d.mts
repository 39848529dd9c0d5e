// Types for vitest-report.mjs, for the tests that read it.

/** The parts of Vitest's JSON report that `npm test` reads. */
export interface VitestReport {
  testResults?: {
    name: string;
    status: string;
    message?: string;
    assertionResults?: {
      fullName?: string;
      status: string;
      failureMessages?: string[];
    }[];
  }[];
}

export interface WorkerDeath {
  file: string;
  signal: string;
}

export interface TestCounts {
  passed: number;
  failed: number;
  skipped: number;
}

export declare function isReadLine(line: string): boolean;
export declare function filesWhoseWorkerDied(output: string): WorkerDeath[];
export declare function rerunnable(json: VitestReport, died: WorkerDeath[]): WorkerDeath[];
export declare function countsOf(json: VitestReport, without?: ReadonlySet<string>): TestCounts;
export declare function failureLines(
  json: VitestReport,
  root: string,
  without?: ReadonlySet<string>,
): string[];
export declare function unhandledErrorCount(output: string): number;
