// Types for vitest-pass.mjs, for the tests that read it.
import type { TestCounts } from './vitest-report.mjs';

export interface VitestPassResult extends TestCounts {
  name: string;
  ok: boolean;
  failures: string[];
  /** The files run again because their worker died, with the signal. */
  reruns?: string[];
}

export declare function vitestPass(options: {
  root: string;
  env: NodeJS.ProcessEnv;
  name: string;
  report: string;
  args: string[];
  rerunCrashed?: boolean;
}): Promise<VitestPassResult>;
