// The data service in its own process, as deployed: started by run.mjs with fork() and driven
// over IPC. Config comes from the environment (DATA_PORT=0, DATA_DIR or DATABASE_URL).
// Messages from the parent: {cmd:'cpu'} -> {cpu, rss}; {cmd:'profile-start'};
// {cmd:'profile-stop', path} -> writes a .cpuprofile; {cmd:'stop'} -> stops and exits.
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { loadDataConfig, startDataService } from '@strata/data';
import pino from 'pino';

// EXPERIMENT knob: BENCH_SERVER_NODELAY=1 disables Nagle on accepted sockets (grpc-js sets it on
// client sockets only).
if (process.env.BENCH_SERVER_NODELAY === '1') {
  const http2 = (await import('node:http2')).default;
  const create = http2.createServer;
  http2.createServer = (...args) => {
    const server = create(...args);
    server.on('connection', (socket) => socket.setNoDelay(true));
    return server;
  };
}

const service = await startDataService(loadDataConfig(process.env), pino({ level: 'silent' }));
let session;

process.on('message', async (message) => {
  const reply = (body) => process.send({ id: message.id, ...body });
  try {
    switch (message.cmd) {
      case 'cpu':
        reply({ cpu: process.cpuUsage(), rss: process.memoryUsage.rss() });
        break;
      case 'profile-start':
        session = new Session();
        session.connect();
        await session.post('Profiler.enable');
        await session.post('Profiler.setSamplingInterval', { interval: 200 });
        await session.post('Profiler.start');
        reply({});
        break;
      case 'profile-stop': {
        const { profile } = await session.post('Profiler.stop');
        writeFileSync(message.path, JSON.stringify(profile));
        session.disconnect();
        reply({});
        break;
      }
      case 'stop':
        await service.stop();
        reply({});
        process.disconnect();
        break;
      default:
        reply({ error: `unknown command ${message.cmd}` });
    }
  } catch (error) {
    reply({ error: String(error?.stack ?? error) });
  }
});

process.send({ ready: true, address: service.address, engine: service.database.engine });
