/**
 * Parses a service's environment once against its schema. Pure: the caller passes the env
 * record (only a composition root passes `process.env`). Every bad key is reported together.
 */
import type { z } from 'zod';

/** Thrown when the environment does not satisfy a service's schema; lists every problem. */
export class ConfigError extends Error {
  readonly problems: readonly string[];

  constructor(service: string, problems: readonly string[]) {
    super(`Invalid ${service} configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
    this.problems = problems;
  }
}

/** Validates `env` against `schema` (keys are variable names) and returns a frozen result. */
export function loadConfig<S extends z.ZodObject>(
  service: string,
  schema: S,
  env: Readonly<Record<string, string | undefined>>,
): Readonly<z.output<S>> {
  const picked: Record<string, string | undefined> = {};
  for (const key of Object.keys(schema.shape)) {
    const raw = env[key];
    // An empty variable means "use the default", as in docker-compose's `${X:-}` passthrough.
    picked[key] = raw === '' ? undefined : raw;
  }
  const result = schema.safeParse(picked);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => {
      const key = issue.path.join('.') || '(root)';
      const raw = picked[String(issue.path[0])];
      const shown = raw === undefined ? 'unset' : `got "${raw}"`;
      return `${key}: ${issue.message} (${shown})`;
    });
    throw new ConfigError(service, problems);
  }
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
