/**
 * Parses a service's environment once against its schema. The caller passes the env record
 * (only a composition root passes `process.env`); the only other input is the files that
 * `<NAME>_FILE` variables name. Every bad key is reported together.
 */
import { readFileSync } from 'node:fs';
import type { z } from 'zod';
import { readFileVariables, type ReadTextFile } from './file-variables.js';

/** Thrown when the environment does not satisfy a service's schema; lists every problem. */
export class ConfigError extends Error {
  readonly problems: readonly string[];

  constructor(service: string, problems: readonly string[]) {
    super(`Invalid ${service} configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
    this.problems = problems;
  }
}

/** How loadConfig reaches outside the env record. */
export interface LoadConfigOptions {
  /** Reads the files `<NAME>_FILE` variables name (default: the file system, UTF-8). */
  readonly readTextFile?: ReadTextFile;
}

const readUtf8: ReadTextFile = (path) => readFileSync(path, 'utf8');

/**
 * Validates `env` against `schema` (keys are variable names) and returns a frozen result. Each
 * variable may instead be given as `<NAME>_FILE`, the path of a file holding its value.
 */
export function loadConfig<S extends z.ZodObject>(
  service: string,
  schema: S,
  env: Readonly<Record<string, string | undefined>>,
  options: LoadConfigOptions = {},
): Readonly<z.output<S>> {
  const keys = Object.keys(schema.shape);
  const files = readFileVariables(keys, env, options.readTextFile ?? readUtf8);
  const picked: Record<string, string | undefined> = {};
  for (const key of keys) {
    const raw = files.values[key] ?? env[key];
    // An empty variable means "use the default", as in docker-compose's `${X:-}` passthrough.
    picked[key] = raw === '' ? undefined : raw;
  }
  const result = schema.safeParse(picked);
  const problems = [...files.problems];
  if (!result.success)
    for (const issue of result.error.issues) {
      const key = issue.path.join('.') || '(root)';
      const name = String(issue.path[0]);
      const raw = picked[name];
      // A value from a file is a secret: say where it came from, never what it is.
      const shown = files.fromFiles.has(name)
        ? `from ${name}_FILE`
        : raw === undefined
          ? 'unset'
          : `got "${raw}"`;
      problems.push(`${key}: ${issue.message} (${shown})`);
    }
  if (problems.length > 0 || !result.success) throw new ConfigError(service, problems);
  return deepFreeze(result.data);
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

/** One documented variable: used to generate each service's environment reference. */
export interface VariableDoc {
  readonly name: string;
  readonly description: string;
  readonly defaultValue: string | undefined;
}

/** Lists the schema's variables with their `.describe()` text and defaults, for docs. */
export function describeConfig(schema: z.ZodObject): VariableDoc[] {
  return Object.entries(schema.shape).map(([name, field]) => {
    const typed = field as z.ZodType;
    const parsed = typed.safeParse(undefined);
    const defaultValue =
      parsed.success && parsed.data !== undefined ? JSON.stringify(parsed.data) : undefined;
    return { name, description: typed.description ?? '', defaultValue };
  });
}
