/** Failure messages that carry what the harness saw, added where a wait gives up. */

/** `promise`, whose rejection's message also gets what `describe` says at that moment. */
export function explainFailure<T>(promise: Promise<T>, describe: () => string): Promise<T> {
  return promise.catch((error: unknown) => {
    if (error instanceof Error) error.message += `\n${describe()}`;
    throw error;
  });
}
