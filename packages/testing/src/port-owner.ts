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

/**
 * Whether process `pid` holds a socket listening on `port`; `undefined` where `/proc` cannot
 * tell (not Linux), so callers fall back to readiness alone.
 */
export async function listensOn(pid: number, port: number): Promise<boolean | undefined> {
  const tables = await Promise.all(
    ['/proc/net/tcp', '/proc/net/tcp6'].map((path) => readFile(path, 'utf8').catch(() => '')),
  );
  if (tables.every((table) => table === '')) return undefined;
  const inodes = new Set(tables.flatMap((table) => listeningInodes(table, port)));
  if (inodes.size === 0) return false;
  const fdDirectory = `/proc/${pid}/fd`;
  const fds = await readdir(fdDirectory).catch(() => [] as string[]);
  for (const fd of fds) {
    const target = await readlink(`${fdDirectory}/${fd}`).catch(() => '');
    const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
    if (inode && inodes.has(inode)) return true;
  }
  return false;
}
