// The ceiling: a bare Fastify endpoint that reads the whole body and discards it.
// Usage: node discard-server.mjs  (prints "listening <url>")
import Fastify from 'fastify';

const app = Fastify({ logger: false, bodyLimit: 20 * 1024 * 1024 });
app.removeAllContentTypeParsers();
app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
app.post('/monitoring', async () => ({}));
const address = await app.listen({ port: 0, host: '127.0.0.1' });
console.log(`listening ${address}`);
