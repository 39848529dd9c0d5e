// Starts what the cache benchmark measures, all on 127.0.0.1: Redis (redis:7-bookworm with
// infra/redis/redis.conf, through `docker run`), the built data service (PGlite in memory, debug
// log so every call can be counted from its own log) and render services from dist/.
import { spawn, execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../kit/ports.mjs';

export const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const log = (...args) => console.error('[bench]', ...args);

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitFor(what, check, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      if (await check()) return;
    } catch {
      // not yet
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

/** Starts Redis in a container on a free port; `stop()` removes it. */
export async function startRedis() {
  const port = await freePort();
  const name = `strata-bench-redis-${process.pid}`;
  execFileSync('docker', [
    'run',
    '-d',
    '--rm',
    '--name',
    name,
    '-p',
    `127.0.0.1:${port}:6379`,
    '-v',
    `${join(root, 'infra/redis/redis.conf')}:/usr/local/etc/redis/redis.conf:ro`,
    'redis:7-bookworm',
    'redis-server',
    '/usr/local/etc/redis/redis.conf',
  ]);
  await waitFor('redis', () =>
    execFileSync('docker', ['exec', name, 'redis-cli', 'ping'], { encoding: 'utf8' }).includes(
      'PONG',
    ),
  );
  return {
    url: `redis://127.0.0.1:${port}`,
    flush: () => execFileSync('docker', ['exec', name, 'redis-cli', 'flushall']),
    info: (section) =>
      execFileSync('docker', ['exec', name, 'redis-cli', 'info', section], { encoding: 'utf8' }),
    stop: () => execFileSync('docker', ['rm', '-f', name], { stdio: 'ignore' }),
  };
}

/**
 * Starts the data service. With `countReads`, it logs at debug level and `reads()` counts the
 * reads its own log reports (logging costs it CPU: not for throughput runs).
 */
export async function startData({ countReads = false } = {}) {
  const port = await freePort();
  const child = spawn(process.execPath, [join(root, 'services/data/dist/main.js')], {
    env: {
      ...process.env,
      DATA_PORT: String(port),
      DATA_DIR: 'memory://',
      LOG_LEVEL: countReads ? 'debug' : 'info',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let reads = 0;
  let ready = false;
  let buffer = '';
  child.stdout.on('data', (chunk) => {
    buffer += chunk;
    let newline;
    while ((newline = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, newline);
      buffer = buffer.slice(newline + 1);
      if (line.includes('"call ok"') && /"method":"(GetItem|ListItems|ListCategories)"/.test(line))
        reads += 1;
      if (line.includes('listening') || line.includes('serving')) ready = true;
    }
  });
  await waitFor('data service', () => ready);
  log('data service on', port);
  return {
    address: `127.0.0.1:${port}`,
    reads: () => reads,
    stop: () => child.kill('SIGTERM'),
    child,
  };
}

/** Starts a render service from dist/ with `env`; resolves when /readyz answers. */
export async function startRender(name, env) {
  const port = await freePort();
  const child = spawn(process.execPath, [join(root, 'services/render/dist/main.js')], {
    env: {
      ...process.env,
      RENDER_PORT: String(port),
      RENDER_HOST: '127.0.0.1',
      ACTION_SALT: 'bench-action-salt',
      RENDER_APP: '@strata/app-bench',
      BUILD_ID: 'bench-build',
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  await waitFor(
    `render (${name})`,
    async () => (await fetch(`http://127.0.0.1:${port}/readyz`)).ok,
  );
  log(`render (${name}) on`, port);
  return { name, port, stop: () => child.kill('SIGTERM'), child };
}
