// Starts a built service (`node <flags> <script>` in a checkout) and waits until it answers: an
// HTTP URL that returns 200, a TCP port that accepts, or a line on its stdout.
import { spawn, spawnSync } from 'node:child_process';
import { connect } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

const started = new Set();
// A bench that dies half-way must not leave servers holding its ports.
process.on('exit', () => {
  for (const child of started) if (child.exitCode === null) child.kill('SIGKILL');
});

const httpAnswers = (url) =>
  fetch(url).then(
    (response) => response.status === 200,
    () => false,
  );

const tcpAccepts = ({ host, port }) =>
  new Promise((resolve) => {
    const socket = connect({ host, port });
    socket.once('connect', () => resolve(true) || socket.destroy());
    socket.once('error', () => resolve(false));
  });

let tasksetFound = false;
/** Pinning runs `taskset` (util-linux); without it spawn would fail with a bare ENOENT. */
function assertTaskset(cpus) {
  if (tasksetFound) return;
  const { error } = spawnSync('taskset', ['--version'], { stdio: 'ignore' });
  if (error)
    throw new Error(`pinning to CPUs ${cpus} needs taskset (util-linux), not found: ${error.code}`);
  tasksetFound = true;
}

/**
 * `root`: the checkout; `script`: relative to it; `flags`: node flags; `env`: over this
 * process's environment, with NODE_ENV=production unless `production` is false; `ready`: `{ http: url }`,
 * `{ tcp: { host, port } }` or `{ stdout: RegExp }` (its first group becomes `url`); `node`: the
 * node binary (default: the one running this); `cpus`:
 * pin it to these CPUs (`taskset -c`, e.g. "0"); `detached`: its own process group (outside a
 * driver's that measures its group's CPU); `keepStdout`: its stdout stays readable on
 * `child.stdout` (flowing: what no listener reads is dropped, so a chatty child never blocks).
 * Resolves with `{ child, pid, url, stop }` once ready; rejects if it exits or takes `timeoutMs`.
 */
export async function startService({
  root,
  script,
  flags = [],
  env = {},
  ready,
  node = process.execPath,
  cpus,
  production = true,
  detached = false,
  keepStdout = false,
  timeoutMs = 60_000,
}) {
  if (cpus) assertTaskset(cpus);
  // taskset execs node, so the child's pid (whose CPU time is read) is node's.
  const [command, args] = cpus
    ? ['taskset', ['-c', cpus, node, ...flags, script]]
    : [node, [...flags, script]];
  const child = spawn(command, args, {
    cwd: root,
    env: { ...process.env, ...(production && { NODE_ENV: 'production' }), ...env },
    stdio: ['ignore', ready.stdout || keepStdout ? 'pipe' : 'ignore', 'inherit'],
    detached,
  });
  started.add(child);
  if (keepStdout && !ready.stdout) child.stdout.resume();
  const stop = () => stopService(child);
  let exited = false;
  child.once('exit', () => (exited = true));
  const deadline = Date.now() + timeoutMs;
  if (ready.stdout) {
    let out = '';
    const url = await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${script}: no ready line`)), timeoutMs);
      const onData = (chunk) => {
        out += chunk;
        const match = ready.stdout.exec(out);
        if (match) {
          clearTimeout(timer);
          child.stdout.off('data', onData);
          resolve(match[1]);
        }
      };
      child.stdout.on('data', onData);
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`${script} exited (${code}) before it was ready: ${out.slice(-300)}`));
      });
    });
    // Keep draining (a chatty service would block on a full pipe); callers may still listen.
    child.stdout.resume();
    return { child, pid: child.pid, url, stop };
  }
  const probe = ready.http ? () => httpAnswers(ready.http) : () => tcpAccepts(ready.tcp);
  while (!(await probe())) {
    if (exited) throw new Error(`${root}: ${script} exited before it answered`);
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`${root}: ${script} did not answer within ${timeoutMs} ms`);
    }
    await sleep(100);
  }
  // A service that failed to bind exits soon after; the answer then came from someone else's.
  await sleep(200);
  if (exited) throw new Error(`${root}: ${script} exited right after an answer on its port`);
  return { child, pid: child.pid, url: ready.http, stop };
}

/** SIGTERM (a profiled service writes its profile then), resolved once it has exited. */
export function stopService(child) {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}
