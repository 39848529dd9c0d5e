/**
 * The one rule every fast codec follows: it handles the values the services send and declines
 * anything else (returns undefined), and ts-proto's generated codec takes those.
 */
import { Unsupported } from './proto-reader.js';

/** `fast`, or `generated` for the inputs `fast` declines. */
export function withFallback<In, Out>(
  fast: (input: In) => Out | undefined,
  generated: (input: In) => Out,
): (input: In) => Out {
  return (input) => fast(input) ?? generated(input);
}

/** Runs a fast decoder, declining (undefined) where it throws Unsupported. */
export function declining<In, Out>(fast: (input: In) => Out): (input: In) => Out | undefined {
  return (input) => {
    try {
      return fast(input);
    } catch (error) {
      if (error instanceof Unsupported) return undefined;
      throw error;
    }
  };
}
