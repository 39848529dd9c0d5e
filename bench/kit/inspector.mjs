// A service's V8 inspector over the Chrome DevTools Protocol: the service runs with
// `--inspect=127.0.0.1:<port>` (inspectFlag) and the bench connects with Node's own WebSocket.
// Used to sample what a service allocates during a measurement (HeapProfiler).

/** The flag that opens the inspector on loopback `port`. */
export const inspectFlag = (port) => `--inspect=127.0.0.1:${port}`;

/** Connects to the inspector on `port`; resolves with `{ send(method, params), close() }`. */
export async function connectInspector(port) {
  const targets = await (await fetch(`http://127.0.0.1:${port}/json/list`)).json();
  const socket = new WebSocket(targets[0].webSocketDebuggerUrl);
  await new Promise((resolve, reject) => {
    socket.addEventListener('open', resolve, { once: true });
    socket.addEventListener('error', () => reject(new Error(`inspector on ${port}`)), {
      once: true,
    });
  });
  const waiting = new Map();
  let nextId = 1;
  socket.addEventListener('message', (event) => {
    const message = JSON.parse(event.data);
    const call = waiting.get(message.id);
    if (!call) return;
    waiting.delete(message.id);
    if (message.error) call.reject(new Error(`${call.method}: ${message.error.message}`));
    else call.resolve(message.result);
  });
  return {
    send(method, params = {}) {
      const id = nextId++;
      socket.send(JSON.stringify({ id, method, params }));
      return new Promise((resolve, reject) => waiting.set(id, { method, resolve, reject }));
    },
    close: () => socket.close(),
  };
}

/**
 * Starts V8's heap profiler sampling every allocation, including the objects GC will have
 * collected by the end (by default it keeps only the survivors).
 */
export async function startAllocationSampling(inspector, { intervalBytes = 4096 } = {}) {
  await inspector.send('HeapProfiler.enable');
  await inspector.send('HeapProfiler.startSampling', {
    samplingInterval: intervalBytes,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
}

/** Stops the sampling; resolves with the sampling heap profile. */
export async function stopAllocationSampling(inspector) {
  const { profile } = await inspector.send('HeapProfiler.stopSampling');
  return profile;
}
