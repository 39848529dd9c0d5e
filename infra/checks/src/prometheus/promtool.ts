/**
 * Runs promtool (Debian's `prometheus` package puts it on PATH; PROMTOOL names another) for the
 * checks: `check config`, `check rules` and `test rules`. A failure is returned with promtool's
 * own words, never thrown, so a test can show them.
 */
import { execFile } from 'node:child_process';

/** What promtool printed; `ok` is false when it exited non-zero or could not start. */
export interface PromtoolResult {
  readonly ok: boolean;
  /** stdout and stderr together, as promtool interleaves its findings across both. */
  readonly output: string;
}

export function runPromtool(args: readonly string[]): Promise<PromtoolResult> {
  const binary = process.env['PROMTOOL'] || 'promtool';
  return new Promise((resolve) => {
    execFile(binary, [...args], { timeout: 120_000 }, (error, stdout, stderr) => {
      const output = `${stdout}${stderr}`;
      resolve({ ok: !error, output: error && !output ? String(error) : output });
    });
  });
}

/** Checks the configuration; `--syntax-only`: its rule_files glob names the container's paths. */
export const checkConfig = (file: string) =>
  runPromtool(['check', 'config', '--syntax-only', file]);

export const checkRules = (files: readonly string[]) => runPromtool(['check', 'rules', ...files]);

export const testRules = (files: readonly string[]) => runPromtool(['test', 'rules', ...files]);
