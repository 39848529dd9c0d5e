// Starts what the cache benchmark measures, all on 127.0.0.1: Redis (redis:7-bookworm with
// infra/redis/redis.conf, through `docker run`), the built data service (PGlite in memory, debug
// log so every call can be counted from its own log) and render services from dist/.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { REPO } from '../kit/out.mjs';
import { freePort } from '../kit/ports.mjs';
import { startService } from '../kit/service.mjs';

export const root = REPO;
const log = (...args) => console.error('[bench]', ...args);

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// Redis answers through `docker exec`, not a port the kit could probe.
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
  // Not in production mode (its secrets checks), as the cache runs were measured.
  const { child, stop } = await startService({
    root,
    script: 'services/data/dist/main.js',
    production: false,
    env: {
      DATA_PORT: String(port),
      DATA_DIR: 'memory://',
      LOG_LEVEL: countReads ? 'debug' : 'info',
    },
    ready: { stdout: /(listening|serving)/ },
  });
  let reads = 0;
  let buffer = '';
  child.stdout.on('data', (chunk) => {
    buffer += chunk;
    let newline;
    while ((newline = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, newline);
      buffer = buffer.slice(newline + 1);
      if (line.includes('"call ok"') && /"method":"(GetItem|ListItems|ListCategories)"/.test(line))
        reads += 1;
    }
  });
  log('data service on', port);
  return { address: `127.0.0.1:${port}`, reads: () => reads, stop, child };
}

/** Starts a render service from dist/ with `env`; resolves when /readyz answers. */
export async function startRender(name, env) {
  const port = await freePort();
  const { child, stop } = await startService({
    root,
    script: 'services/render/dist/main.js',
    production: false,
    env: {
      RENDER_PORT: String(port),
      RENDER_HOST: '127.0.0.1',
      ACTION_SALT: 'bench-action-salt',
      RENDER_APP: '@strata/app-bench',
      BUILD_ID: 'bench-build',
      LOG_LEVEL: 'warn',
      ...env,
    },
    ready: { http: `http://127.0.0.1:${port}/readyz` },
  });
  log(`render (${name}) on`, port);
  return { name, port, stop, child };
}
