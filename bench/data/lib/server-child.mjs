// Forks server.mjs and talks to it over IPC.
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const SERVER = fileURLToPath(new URL('../server.mjs', import.meta.url));

/** Starts the data service in a child process with the given extra environment. */
export async function startServerChild(env, { execArgv = [] } = {}) {
  const child = fork(SERVER, [], {
    env: { ...process.env, DATA_PORT: '0', ...env },
    execArgv,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let nextId = 1;
  const pending = new Map();
  const ready = new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`server child exited early (code ${code})`)));
    child.on('message', (message) => {
      if (message.ready) return resolve(message);
      const waiter = pending.get(message.id);
      if (!waiter) return;
      pending.delete(message.id);
      if (message.error) waiter.reject(new Error(message.error));
      else waiter.resolve(message);
    });
  });
  const { address, engine } = await ready;
  const request = (cmd, extra = {}) =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve, reject });
      child.send({ id, cmd, ...extra });
    });
  return {
    address,
    engine,
    pid: child.pid,
    cpu: async () => (await request('cpu')).cpu,
    profileStart: () => request('profile-start'),
    profileStop: (path) => request('profile-stop', { path }),
    async stop() {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      await request('stop').catch(() => undefined);
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
