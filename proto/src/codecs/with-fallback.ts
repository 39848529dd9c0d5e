/**
 * The one rule every hand-written codec follows: it handles the values the services send and
 * declines anything else (returns undefined), and ts-proto's generated codec takes those.
 */

/** `fast`, or `generated` for the inputs `fast` declines. */
export function withFallback<In, Out>(
  fast: (input: In) => Out | undefined,
  generated: (input: In) => Out,
): (input: In) => Out {
  return (input) => fast(input) ?? generated(input);
}
