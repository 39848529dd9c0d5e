/**
 * Relay's glob rules (`relay-common` glob3): whole-string, case-insensitive; `*` matches any run
 * of characters including newlines, `?` one character, `[0-4]`/`[!0-4]` ranges, `{a,b}`
 * alternatives, `\` escapes. A leading `!` is literal. Empty patterns and inputs never match.
 */

const cache = new Map<string, RegExp | null>();

/** Whether `input` matches the glob `pattern`. */
export function globMatches(pattern: string, input: string): boolean {
  if (pattern.length === 0 || input.length === 0) return false;
  let regex = cache.get(pattern);
  if (regex === undefined) {
    regex = compileGlob(pattern);
    if (cache.size > 1000) cache.clear();
    cache.set(pattern, regex);
  }
  return regex !== null && regex.test(input);
}

/** Whether any pattern matches. */
export function anyGlobMatches(patterns: readonly string[], input: string | undefined): boolean {
  return input !== undefined && patterns.some((pattern) => globMatches(pattern, input));
}

function compileGlob(pattern: string): RegExp | null {
  let source = '';
  let depth = 0;
  for (let i = 0; i < pattern.length; i += 1) {
    const char = pattern[i]!;
    if (char === '\\' && i + 1 < pattern.length) {
      i += 1;
      source += escapeRegex(pattern[i]!);
    } else if (char === '*') {
      source += '[\\s\\S]*';
    } else if (char === '?') {
      source += '[\\s\\S]';
    } else if (char === '[') {
      const end = pattern.indexOf(']', i + 2);
      if (end === -1) {
        source += '\\[';
        continue;
      }
      let body = pattern.slice(i + 1, end);
      const negate = body.startsWith('!');
      if (negate) body = body.slice(1);
      source += `[${negate ? '^' : ''}${body.replace(/[\\\]^]/g, '\\$&')}]`;
      i = end;
    } else if (char === '{') {
      depth += 1;
      source += '(?:';
    } else if (char === '}' && depth > 0) {
      depth -= 1;
      source += ')';
    } else if (char === ',' && depth > 0) {
      source += '|';
    } else {
      source += escapeRegex(char);
    }
  }
  if (depth !== 0) return null;
  try {
    return new RegExp(`^${source}$`, 'i');
  } catch {
    return null;
  }
}

function escapeRegex(char: string): string {
  return char.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}
