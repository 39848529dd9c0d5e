// The upstream of the attack bench: stands in for Sentry (the only test double: it is outside
// the system). Answers 200 to every envelope and remembers the event ids it received; GET /seen
// answers them. Gzipped bodies (the relay compresses large ones for Sentry) are inflated.
import { createServer } from 'node:http';
import { gunzipSync } from 'node:zlib';

const seen = new Set();
let envelopes = 0;
const server = createServer((request, response) => {
  if (request.method === 'GET') {
    response.end(JSON.stringify({ envelopes, ids: [...seen] }));
    return;
  }
  const chunks = [];
  request.on('data', (chunk) => chunks.push(chunk));
  request.on('end', () => {
    let body = Buffer.concat(chunks);
    if (request.headers['content-encoding'] === 'gzip') body = gunzipSync(body);
    envelopes += 1;
    const headerLine = body.subarray(0, body.indexOf(10)).toString();
    try {
      const id = JSON.parse(headerLine).event_id;
      if (typeof id === 'string') seen.add(id);
    } catch {
      // Not ours to judge: the count above still has it.
    }
    response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () =>
  console.log(`listening http://127.0.0.1:${server.address().port}`),
);
