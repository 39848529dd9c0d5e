// The A/B tools' environment interface, parsed: `--flag …` words and `VAR=value …` assignments.
// Pure.

/** Space-separated words of `value` (none when unset). */
export const wordsOf = (value) => (value || '').split(' ').filter(Boolean);

/** `VAR=value VAR2=a=b` as `{ VAR: 'value', VAR2: 'a=b' }`. */
export const assignmentsOf = (value) =>
  Object.fromEntries(
    wordsOf(value).map((word) => {
      const equals = word.indexOf('=');
      if (equals <= 0) throw new Error(`not VAR=value: ${word}`);
      return [word.slice(0, equals), word.slice(equals + 1)];
    }),
  );

/** Node flags from `value`: `fallback` when unset, none for an empty string or `none`. */
export function flagsOf(value, fallback) {
  if (value === undefined) return fallback;
  return value === 'none' ? [] : wordsOf(value);
}

/** A positive number from `value`, or `fallback` when unset; anything else is an error. */
export function positiveNumber(name, value, fallback) {
  if (value === undefined || value === '') return fallback;
  const number = Number(value);
  if (!(number > 0)) throw new Error(`${name} must be a positive number, got ${value}`);
  return number;
}
