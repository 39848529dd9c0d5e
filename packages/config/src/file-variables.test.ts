import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { positiveInt } from './env-parsers.js';
import { ConfigError, loadConfig } from './load-config.js';

const schema = z.object({
  APP_SECRET: z.string().min(16, 'must be at least 16 characters').optional(),
  APP_WORKERS: positiveInt(4),
});

/** A real file in a fresh directory. */
function secretFile(content: string): string {
  const path = join(mkdtempSync(join(tmpdir(), 'config-file-')), 'secret');
  writeFileSync(path, content, { mode: 0o600 });
  return path;
}

function problemsOf(env: Record<string, string>): readonly string[] {
  try {
    loadConfig('app', schema, env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe('<NAME>_FILE variables', () => {
  it('reads a value from the file, without the trailing line break', () => {
    const path = secretFile('a-secret-from-a-file-0123\n');
    expect(loadConfig('app', schema, { APP_SECRET_FILE: path }).APP_SECRET).toBe(
      'a-secret-from-a-file-0123',
    );
  });

  it('works for every variable of the schema, parsed like the plain variable', () => {
    expect(loadConfig('app', schema, { APP_WORKERS_FILE: secretFile('12\n') }).APP_WORKERS).toBe(
      12,
    );
  });

  it('keeps a plain variable working, and an empty _FILE means unset', () => {
    const config = loadConfig('app', schema, {
      APP_SECRET: 'a-plain-secret-0123456',
      APP_SECRET_FILE: '',
    });
    expect(config.APP_SECRET).toBe('a-plain-secret-0123456');
  });

  it('refuses both forms at once', () => {
    const path = secretFile('a-secret-from-a-file-0123');
    expect(problemsOf({ APP_SECRET: 'a-plain-secret-0123456', APP_SECRET_FILE: path })).toEqual([
      'APP_SECRET: set either APP_SECRET or APP_SECRET_FILE, not both',
    ]);
  });

  it('names the file it cannot read, with every other problem', () => {
    expect(problemsOf({ APP_SECRET_FILE: '/nonexistent/secret', APP_WORKERS: 'many' })).toEqual([
      'APP_SECRET_FILE: cannot read "/nonexistent/secret" (ENOENT)',
      'APP_WORKERS: must be a number (got "many")',
    ]);
  });

  it('never prints a value that came from a file', () => {
    const problems = problemsOf({ APP_SECRET_FILE: secretFile('short-secret\n') });
    expect(problems).toEqual(['APP_SECRET: must be at least 16 characters (from APP_SECRET_FILE)']);
    expect(problems.join('\n')).not.toContain('short-secret');
  });
});
