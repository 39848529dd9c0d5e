// Free loopback ports for services that need theirs named up front (the data service's address
// goes into the render service's environment). Fixed ports collide with other benches running
// on the same machine, and a readiness probe would then find the other bench's server.
import { createServer } from 'node:net';

/** A TCP port on 127.0.0.1 that was free a moment ago (the OS picks it). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}
