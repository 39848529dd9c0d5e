/**
 * `<NAME>_FILE` variables: a setting read from a file (a compose or Kubernetes secret mounted at
 * /run/secrets/…) instead of the environment, so secrets stay out of `docker inspect` and process
 * listings. Every variable of every service's schema can be given either way, never both.
 */

/** Reads one file's text (injected: tests pass a fake, services the file system). */
export type ReadTextFile = (path: string) => string;

/** The variables resolved from files, and what went wrong. */
export interface FileVariables {
  /** Variable name → its value from the file (one trailing line break removed). */
  readonly values: Readonly<Record<string, string>>;
  /** Names whose value came from a file: their values must never be printed. */
  readonly fromFiles: ReadonlySet<string>;
  readonly problems: readonly string[];
}

/** Suffix naming the file that holds a variable's value. */
export const FILE_SUFFIX = '_FILE';

/** Resolves `<key>_FILE` for each of `keys` present in `env`. */
export function readFileVariables(
  keys: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  readTextFile: ReadTextFile,
): FileVariables {
  const values: Record<string, string> = {};
  const fromFiles = new Set<string>();
  const problems: string[] = [];
  for (const key of keys) {
    const path = env[`${key}${FILE_SUFFIX}`];
    if (path === undefined || path === '') continue;
    if (env[key] !== undefined && env[key] !== '') {
      problems.push(`${key}: set either ${key} or ${key}${FILE_SUFFIX}, not both`);
      continue;
    }
    fromFiles.add(key);
    try {
      // Secret files usually end with a line break that is not part of the value.
      values[key] = readTextFile(path).replace(/\r?\n$/, '');
    } catch (error) {
      const reason = (error as NodeJS.ErrnoException).code ?? 'unreadable';
      problems.push(`${key}${FILE_SUFFIX}: cannot read "${path}" (${reason})`);
    }
  }
  return { values, fromFiles, problems };
}
