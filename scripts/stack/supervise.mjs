// Runs one service as a child process: pretty, prefixed log lines, readiness polling, and a
// graceful stop (SIGTERM, then SIGKILL after a grace period).
import { spawn } from 'node:child_process';
import { connect } from 'node:net';
import { createInterface } from 'node:readline';
import { prettyFactory } from 'pino-pretty';

const COLORS = [36, 35, 33, 32, 34, 31];
const STOP_GRACE_MS = 15_000;
const READY_TIMEOUT_MS = 60_000;
const pretty = prettyFactory({
  colorize: process.stdout.isTTY,
  translateTime: 'HH:MM:ss',
  ignore: 'pid,hostname,name',
  singleLine: true,
});
let colorIndex = 0;

function prefixer(name) {
  const color = COLORS[colorIndex++ % COLORS.length];
  const tag = process.stdout.isTTY
    ? `\u001b[${color}m${name.padEnd(9)}\u001b[0m│`
    : `${name.padEnd(9)}│`;
  return (line) => {
    let text = line;
    if (line.startsWith('{')) {
      try {
        text = pretty(JSON.parse(line)).trimEnd();
      } catch {
        // not a log record; print as is
      }
    }
    for (const part of text.split('\n')) process.stdout.write(`${tag} ${part}\n`);
  };
}

function probe(ready) {
  if (ready.kind === 'http')
    return fetch(ready.url).then(
      (response) => response.ok,
      () => false,
    );
  return new Promise((resolve) => {
    const socket = connect(ready.port, ready.host);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

async function waitReady(name, ready, exited) {
  const until = Date.now() + READY_TIMEOUT_MS;
  let done = false;
  exited.then(() => (done = true));
  while (Date.now() < until) {
    if (done) throw new Error(`${name} exited before it was ready`);
    if (await probe(ready)) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${name} was not ready after ${READY_TIMEOUT_MS / 1000} s`);
}

/** Starts a service; returns its handle. */
export function startService(root, service) {
  const child = spawn(
    process.execPath,
    ['--enable-source-maps', ...(service.nodeArgs ?? []), service.entry, ...(service.args ?? [])],
    {
      cwd: root,
      env: service.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const print = prefixer(service.name);
  createInterface({ input: child.stdout }).on('line', print);
  createInterface({ input: child.stderr }).on('line', print);
  const exited = new Promise((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const ready = waitReady(service.name, service.ready, exited);
  ready.catch(() => undefined);
  return {
    name: service.name,
    ready,
    exited,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
      await exited;
      clearTimeout(timer);
    },
  };
}
