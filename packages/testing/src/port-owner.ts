/**
 * Whose socket listens on a port (Linux `/proc`). A free port picked for a child can be taken
 * by another test's server before the child binds it; that server then answers the readiness
 * check in the child's place, so readiness counts only once the child holds the listener.
 */
import { readFile, readdir, readlink } from 'node:fs/promises';

const LISTEN_STATE = '0A';

/** The socket inodes listening on `port` in a `/proc/net/tcp` or `/proc/net/tcp6` table. */
export function listeningInodes(table: string, port: number): string[] {
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  const inodes: string[] = [];
  for (const line of table.split('\n').slice(1)) {
    const fields = line.trim().split(/\s+/);
    const [localAddress, state, inode] = [fields[1], fields[3], fields[9]];
    if (state === LISTEN_STATE && localAddress?.endsWith(`:${hexPort}`) && inode)
      inodes.push(inode);
  }
  return inodes;
}

/** The socket inodes listening on `port`; `undefined` where `/proc` cannot tell (not Linux). */
async function inodesListeningOn(port: number): Promise<Set<string> | undefined> {
  const tables = await Promise.all(
    ['/proc/net/tcp', '/proc/net/tcp6'].map((path) => readFile(path, 'utf8').catch(() => '')),
  );
  if (tables.every((table) => table === '')) return undefined;
  return new Set(tables.flatMap((table) => listeningInodes(table, port)));
}

/** Whether process `pid` has a file descriptor on one of `inodes`. */
async function holdsSocket(pid: number, inodes: ReadonlySet<string>): Promise<boolean> {
  const fdDirectory = `/proc/${pid}/fd`;
  const fds = await readdir(fdDirectory).catch(() => [] as string[]);
  for (const fd of fds) {
    const target = await readlink(`${fdDirectory}/${fd}`).catch(() => '');
    const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
    if (inode && inodes.has(inode)) return true;
  }
  return false;
}

/**
 * Whether process `pid` holds a socket listening on `port`; `undefined` where `/proc` cannot
 * tell (not Linux), so callers fall back to readiness alone.
 */
export async function listensOn(pid: number, port: number): Promise<boolean | undefined> {
  const inodes = await inodesListeningOn(port);
  if (inodes === undefined) return undefined;
  return inodes.size > 0 && holdsSocket(pid, inodes);
}

/** The parent of a `/proc/<pid>/stat` line (its fourth field; the name may hold spaces). */
export function parentOf(stat: string): number | undefined {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const parent = Number(fields[1]);
  return Number.isInteger(parent) ? parent : undefined;
}

/** `root` and every process it started, directly or not (Linux `/proc`). */
export async function processTree(root: number): Promise<number[]> {
  const names = await readdir('/proc').catch(() => [] as string[]);
  const children = new Map<number, number[]>();
  for (const name of names.filter((entry) => /^\d+$/.test(entry))) {
    const parent = parentOf(await readFile(`/proc/${name}/stat`, 'utf8').catch(() => ''));
    if (parent === undefined) continue;
    if (!children.has(parent)) children.set(parent, []);
    children.get(parent)!.push(Number(name));
  }
  const tree = [root];
  for (let next = 0; next < tree.length; next += 1) tree.push(...(children.get(tree[next]!) ?? []));
  return tree;
}

/**
 * Whether `root` or a process it started holds a socket listening on `port`: for a command whose
 * listener is a process it started (`npx` running a CLI that runs the service). `undefined`
 * where `/proc` cannot tell.
 */
export async function treeListensOn(root: number, port: number): Promise<boolean | undefined> {
  const inodes = await inodesListeningOn(port);
  if (inodes === undefined) return undefined;
  if (inodes.size === 0) return false;
  for (const pid of await processTree(root)) if (await holdsSocket(pid, inodes)) return true;
  return false;
}
