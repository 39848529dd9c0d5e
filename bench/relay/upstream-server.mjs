// A counting upstream for the benchmark: answers 200 to every envelope after DELAY_MS (default 0)
// and reports the count on GET /count. Usage: DELAY_MS=50 node upstream-server.mjs
import { createServer } from 'node:http';

const delay = Number(process.env.DELAY_MS ?? 0);
let count = 0;
const server = createServer((req, res) => {
  if (req.method === 'GET') {
    res.end(JSON.stringify({ count }));
    return;
  }
  req.resume();
  req.on('end', () => {
    count += 1;
    const answer = () => res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    if (delay > 0) setTimeout(answer, delay);
    else answer();
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () =>
  console.log(`listening http://127.0.0.1:${server.address().port}`),
);
