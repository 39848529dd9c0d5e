/**
 * Zod schemas for the shapes environment variables take. Every parser accepts the raw string
 * (or undefined) and produces a typed value; errors read well when listed by `loadConfig`.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';

/** A TCP port, 0 allowed (let the OS choose; useful in tests). */
export function port(defaultPort: number) {
  return z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(0, 'must be 0-65535')
    .max(65535, 'must be 0-65535')
    .default(defaultPort);
}

/** A positive whole number with an optional upper bound. */
export function positiveInt(defaultValue: number, max = Number.MAX_SAFE_INTEGER) {
  return z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(max, `must be at most ${max}`)
    .default(defaultValue);
}

const DURATION = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/;
const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** A duration such as `250ms`, `5s`, `2m` or a bare number of milliseconds; parsed to ms. */
export function durationMs(defaultValue: string) {
  return z
    .string()
    .default(defaultValue)
    .transform((raw, ctx) => {
      const match = DURATION.exec(raw.trim());
      if (!match) {
        ctx.addIssue({ code: 'custom', message: `"${raw}" is not a duration like 500ms, 5s, 2m` });
        return z.NEVER;
      }
      return Math.round(Number(match[1]) * (UNIT_MS[match[2] ?? 'ms'] ?? 1));
    });
}

const TRUE = new Set(['1', 'true', 'yes', 'on']);
const FALSE = new Set(['0', 'false', 'no', 'off', '']);

/** A boolean flag: 1/true/yes/on or 0/false/no/off (case-insensitive). */
export function bool(defaultValue: boolean) {
  return z
    .string()
    .optional()
    .transform((raw, ctx) => {
      if (raw === undefined) return defaultValue;
      const value = raw.trim().toLowerCase();
      if (TRUE.has(value)) return true;
      if (FALSE.has(value)) return false;
      ctx.addIssue({ code: 'custom', message: `"${raw}" is not a boolean (use true or false)` });
      return z.NEVER;
    });
}

/** A comma-separated list; blanks are dropped, entries trimmed. */
export function csvList(defaultValue = '') {
  return z
    .string()
    .default(defaultValue)
    .transform((raw) =>
      raw
        .split(',')
        .map((entry) => entry.trim())
        .filter((entry) => entry.length > 0),
    );
}

/** An absolute URL with one of the given protocols. */
export function url(protocols: readonly string[]) {
  return z.string().refine(
    (raw) => {
      try {
        return protocols.includes(new URL(raw).protocol.replace(/:$/, ''));
      } catch {
        return false;
      }
    },
    { message: `must be a ${protocols.join(' or ')} URL` },
  );
}

/** One of a fixed set of strings. */
export function oneOf<const T extends readonly [string, ...string[]]>(
  values: T,
  defaultValue: T[number],
) {
  return z.enum(values).default(defaultValue as never);
}

/**
 * A path to a PEM file (a certificate, key or CA), read when the config is parsed so a wrong path
 * stops the service at start with the variable's name, not at its first connection. The value is
 * the file's text.
 */
export function pemFile(readFile: (path: string) => string = (path) => readFileSync(path, 'utf8')) {
  return z
    .string()
    .min(1)
    .optional()
    .transform((path, ctx) => {
      if (path === undefined) return undefined;
      let contents: string;
      try {
        contents = readFile(path);
      } catch (error) {
        const reason = (error as NodeJS.ErrnoException).code ?? 'unreadable';
        ctx.addIssue({ code: 'custom', message: `cannot read "${path}" (${reason})` });
        return z.NEVER;
      }
      if (!contents.includes('-----BEGIN ')) {
        ctx.addIssue({ code: 'custom', message: `"${path}" is not a PEM file` });
        return z.NEVER;
      }
      return contents;
    });
}

/**
 * Reports, on a schema's superRefine, settings that only work together (a certificate and its
 * key) when only some of them are set, naming the ones missing.
 */
export function requireTogether(
  config: Readonly<Record<string, unknown>>,
  names: readonly string[],
  ctx: z.RefinementCtx,
): void {
  const missing = names.filter((name) => config[name] === undefined);
  if (missing.length === 0 || missing.length === names.length) return;
  for (const name of missing)
    ctx.addIssue({
      code: 'custom',
      path: [name],
      message: `goes with ${names.filter((other) => other !== name).join(' and ')}`,
    });
}
