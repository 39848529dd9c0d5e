// Durable-append strategies for the relay spool, measured on this machine's disk: 64 concurrent
// writers of 2 KiB records for a fixed time each; a write counts once it is durable.
// Usage (from the repo root): node bench/relay/spool-strategies.mjs [--seconds 3]
import { constants, fdatasync, openSync, closeSync, writeSync } from 'node:fs';
import { promisify } from 'node:util';
import { mkdtemp, open, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const secondsIndex = process.argv.indexOf('--seconds');
const SECONDS = secondsIndex === -1 ? 3 : Number(process.argv[secondsIndex + 1]);
const WRITERS = 64;
const record = Buffer.alloc(2048, 0x61);

async function syncDir(dir) {
  const handle = await open(dir, 'r');
  await handle.sync();
  await handle.close();
}

/** Group commit: one writev for everything queued, then one sync (fdatasync or O_DSYNC). */
function groupCommit(handle, syncEach) {
  let queue = [];
  let running = null;
  async function flush() {
    while (queue.length > 0) {
      const batch = queue;
      queue = [];
      await handle.writev(batch.map((entry) => entry.data));
      if (syncEach) await handle.datasync();
      for (const entry of batch) entry.resolve();
    }
    running = null;
  }
  return (data) =>
    new Promise((resolve) => {
      queue.push({ data, resolve });
      running ??= flush();
    });
}

/** What the relay does: synchronous page-cache append, one background fdatasync at a time. */
function appendThenSync(fd) {
  const sync = promisify(fdatasync);
  let written = 0;
  let syncing = null;
  const waiters = [];
  const kick = () => {
    if (syncing || waiters.length === 0) return;
    const upTo = written;
    syncing = sync(fd).then(() => {
      while (waiters.length > 0 && waiters[0].seq <= upTo) waiters.shift().resolve();
      syncing = null;
      kick();
    });
  };
  return (data) => {
    writeSync(fd, data);
    written += 1;
    const seq = written;
    return new Promise((resolve) => {
      waiters.push({ seq, resolve });
      kick();
    });
  };
}

async function measure(name, makeAppend) {
  const dir = await mkdtemp(join(tmpdir(), 'spool-strategy-'));
  const { append, close } = await makeAppend(dir);
  let count = 0;
  const deadline = Date.now() + SECONDS * 1000;
  const writer = async (id) => {
    for (let i = 0; Date.now() < deadline; i += 1) {
      await append(record, `${id}-${i}`);
      count += 1;
    }
  };
  await Promise.all(Array.from({ length: WRITERS }, (_, id) => writer(id)));
  await close();
  await rm(dir, { recursive: true, force: true });
  console.log(`| ${name} | ${Math.round(count / SECONDS)} |`);
}

console.log(
  `| strategy (${WRITERS} concurrent writers, 2 KiB records, ${SECONDS}s) | durable appends/s |`,
);
console.log('| --- | ---: |');
await measure('segment log, sync append + background fdatasync (the relay)', async (dir) => {
  const fd = openSync(join(dir, 'segment.log'), 'a');
  return { append: appendThenSync(fd), close: async () => closeSync(fd) };
});
await measure('segment log, group commit, writev + fdatasync', async (dir) => {
  const handle = await open(join(dir, 'segment.log'), 'a');
  return { append: groupCommit(handle, true), close: () => handle.close() };
});
await measure('segment log, group commit, O_DSYNC writev', async (dir) => {
  const flags = constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_DSYNC;
  const handle = await open(join(dir, 'segment.log'), flags, 0o644);
  return { append: groupCommit(handle, false), close: () => handle.close() };
});
await measure('file per envelope (write tmp, fsync, rename, fsync dir)', async (dir) => ({
  async append(data, name) {
    const tmp = join(dir, `${name}.tmp`);
    const handle = await open(tmp, 'w');
    await handle.writeFile(data);
    await handle.sync();
    await handle.close();
    await rename(tmp, join(dir, `${name}.env`));
    await syncDir(dir);
  },
  close: async () => undefined,
}));
await measure('no durability (writeFile per record, no sync) — for reference', async (dir) => ({
  append: (data, name) => writeFile(join(dir, `${name}.env`), data),
  close: async () => undefined,
}));
