// One send the way the relay's upstream client makes it (services/relay/src/upstream/
// http-send.ts): undici's dispatch with a handler that keeps nothing of the answer's body.

/** Sends `options` through `agent`; resolves when the answer has ended. */
export function dispatchSend(agent, options) {
  return new Promise((resolve, reject) => {
    agent.dispatch(options, {
      onRequestStart() {},
      onResponseStart() {},
      onResponseData() {},
      onResponseEnd: () => resolve(),
      onResponseError: (_controller, error) => reject(error),
    });
  });
}
