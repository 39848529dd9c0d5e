/**
 * Reads samples out of a Prometheus text exposition, so tests assert values rather than
 * substrings.
 */

/**
 * The sum of every sample of `name` whose labels include `labels` (undefined: no such sample).
 */
export function sampleSum(
  text: string,
  name: string,
  labels: Readonly<Record<string, string>> = {},
): number | undefined {
  let sum: number | undefined;
  for (const line of text.split('\n')) {
    const match = /^([A-Za-z_:][\w:]*)(?:\{(.*)\})?\s+(\S+)/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = new Map(
      [...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]),
    );
    if (Object.entries(labels).every(([key, value]) => found.get(key) === value))
      sum = (sum ?? 0) + Number(match[3]);
  }
  return sum;
}
