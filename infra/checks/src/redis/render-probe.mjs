/**
 * The render service's side of a Sentinel group, inside the group's network (where the names the
 * sentinels announce resolve, as in a cluster): the same REDIS_* settings and the same
 * @strata/redis client the services use. GET / writes a key on the master the client is connected
 * to and answers that server's run_id; 503 with the error while there is none.
 */
import { createServer } from 'node:http';
import { openRedisClient, redisConfigFields, redisTargetFrom } from '@strata/redis';
import { z } from 'zod';

const settings = z.object(redisConfigFields('the probe')).parse(process.env);
const target = redisTargetFrom(settings);
if (!target) throw new Error('set REDIS_SENTINELS');
const client = openRedisClient(target, {
  commandTimeoutMs: 1000,
  connectTimeoutMs: 1000,
  connectionName: 'render-probe',
  logger: { warn: (details, message) => console.warn(message, String(details.err)) },
});

let written = 0;
createServer((_request, response) => {
  const answer = async () => {
    await client.set('render-probe', String((written += 1)));
    const server = await client.info('server');
    return /run_id:(\w+)/.exec(server)?.[1] ?? '';
  };
  answer().then(
    (runId) => response.writeHead(200).end(runId),
    (error) => response.writeHead(503).end(String(error)),
  );
}).listen(8080);
