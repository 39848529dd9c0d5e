/**
 * Runs helm for the checks: `lint --strict`, `template` and `package`, offline. Helm's cache, config and
 * data directories point into a temporary directory made for each run and removed after it, so
 * nothing reaches $HOME, and KUBECONFIG names a file that does not exist: `template` never asks a
 * cluster anything (its `lookup` calls answer empty).
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { CHART_DIRECTORY } from './chart-paths.js';
import { helmBinary } from './helm-binary.js';

const execFileAsync = promisify(execFile);

/** Release name and namespace of every render, so the golden examples are stable. */
export const RELEASE = { name: 'strata', namespace: 'strata' } as const;

/** Helm's environment for one run, all of its directories under `home`. */
function isolatedEnvironment(home: string): NodeJS.ProcessEnv {
  return {
    PATH: process.env['PATH'] ?? '',
    HOME: home,
    HELM_CACHE_HOME: join(home, 'cache'),
    HELM_CONFIG_HOME: join(home, 'config'),
    HELM_DATA_HOME: join(home, 'data'),
    KUBECONFIG: join(home, 'no-cluster.kubeconfig'),
  };
}

/** What helm printed; `ok` is false when it exited non-zero. */
export interface HelmResult {
  readonly ok: boolean;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs helm with `args`; never throws for a non-zero exit (the result says so). */
export async function runHelm(args: readonly string[]): Promise<HelmResult> {
  const helm = await helmBinary();
  const home = await mkdtemp(join(tmpdir(), 'strata-helm-'));
  try {
    const { stdout, stderr } = await execFileAsync(helm, [...args], {
      env: isolatedEnvironment(home),
      maxBuffer: 64 * 1024 * 1024,
      timeout: 60_000,
    });
    return { ok: true, stdout, stderr };
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string; message: string };
    return { ok: false, stdout: failed.stdout ?? '', stderr: failed.stderr ?? failed.message };
  } finally {
    await rm(home, { recursive: true, force: true });
  }
}

/** Values for one run: files (`-f`) and single settings (`--set`, `--set-json`). */
export interface ValuesOptions {
  readonly valuesFiles?: readonly string[];
  readonly set?: readonly string[];
  readonly setJson?: readonly string[];
}

function valuesArguments(options: ValuesOptions): string[] {
  return [
    ...(options.valuesFiles ?? []).flatMap((file) => ['--values', file]),
    ...(options.set ?? []).flatMap((setting) => ['--set', setting]),
    ...(options.setJson ?? []).flatMap((setting) => ['--set-json', setting]),
  ];
}

/** `helm lint --strict` of the chart (warnings fail too). */
export function lintChart(options: ValuesOptions = {}): Promise<HelmResult> {
  return runHelm(['lint', '--strict', CHART_DIRECTORY, ...valuesArguments(options)]);
}

/** `helm template` of the chart as release `strata` in namespace `strata`, hooks included. */
export function templateChart(options: ValuesOptions = {}): Promise<HelmResult> {
  return runHelm([
    'template',
    RELEASE.name,
    CHART_DIRECTORY,
    '--namespace',
    RELEASE.namespace,
    ...valuesArguments(options),
  ]);
}

/** `helm install --dry-run=client`: what an install would print, NOTES.txt included; offline. */
export function installDryRun(options: ValuesOptions = {}): Promise<HelmResult> {
  return runHelm([
    'install',
    RELEASE.name,
    CHART_DIRECTORY,
    '--namespace',
    RELEASE.namespace,
    '--dry-run=client',
    ...valuesArguments(options),
  ]);
}

/** `helm package` of the chart into `destination`: the archive a chart repository would serve. */
export function packageChart(destination: string): Promise<HelmResult> {
  return runHelm(['package', CHART_DIRECTORY, '--destination', destination]);
}

/** Like templateChart, but throws with helm's own message when it fails. */
export async function renderChart(options: ValuesOptions = {}): Promise<string> {
  const result = await templateChart(options);
  if (!result.ok) throw new Error(`helm template failed:\n${result.stderr}`);
  return result.stdout;
}
