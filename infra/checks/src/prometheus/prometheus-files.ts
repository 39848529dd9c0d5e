/**
 * Where the Prometheus configuration, its rules, their promtool tests and the runbooks live in
 * the repository, and those files read (parsing is rule-files.ts's).
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAlertCases, parseRuleFile, type AlertCase, type Rule } from './rule-files.js';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
export const PROMETHEUS_DIRECTORY = join(ROOT, 'infra/prometheus');
export const CONFIG_FILE = join(PROMETHEUS_DIRECTORY, 'prometheus.yml');
export const RULES_DIRECTORY = join(PROMETHEUS_DIRECTORY, 'rules');
export const RULE_TESTS_DIRECTORY = join(PROMETHEUS_DIRECTORY, 'tests');
/** As the alerts' runbook_url names it: relative to the repository root. */
export const RUNBOOK_PATH = 'docs/runbooks.md';

/** The `*.yml` files of `directory`, full paths, sorted. */
async function yamlFiles(directory: string): Promise<string[]> {
  const files = await readdir(directory);
  return files
    .filter((file) => file.endsWith('.yml'))
    .sort()
    .map((file) => join(directory, file));
}

export const ruleFiles = () => yamlFiles(RULES_DIRECTORY);
export const ruleTestFiles = () => yamlFiles(RULE_TESTS_DIRECTORY);

/** Every rule of every rule file. */
export async function loadRules(): Promise<Rule[]> {
  const files = await ruleFiles();
  const texts = await Promise.all(files.map((file) => readFile(file, 'utf8')));
  return files.flatMap((file, index) => parseRuleFile(file, texts[index] ?? ''));
}

/** Every alert case of every promtool test file. */
export async function loadAlertCases(): Promise<AlertCase[]> {
  const files = await ruleTestFiles();
  const texts = await Promise.all(files.map((file) => readFile(file, 'utf8')));
  return files.flatMap((file, index) => parseAlertCases(file, texts[index] ?? ''));
}

export const readRunbooks = () => readFile(join(ROOT, RUNBOOK_PATH), 'utf8');
