/**
 * Looks at a running compose stack from the inside: whether one container can open a TCP
 * connection to another, and how Docker runs a container (user, root file system, privileges,
 * capabilities, memory). Everything goes through the docker and compose CLIs.
 */
import { run, type ComposeStack } from './compose-stack.js';
import { IMAGE_TAG } from './images.js';

/** How a connection attempt ended: `open`, or the error (timeout, ENOTFOUND, …). */
export type Reach = 'open' | string;

// Runs in the service images (node is there); argv: host port.
const CONNECT = `
const socket = require('node:net').connect({ host: process.argv[1], port: Number(process.argv[2]) });
socket.setTimeout(1500);
socket.on('connect', () => { console.log('open'); process.exit(0); });
socket.on('timeout', () => { console.log('timeout'); process.exit(0); });
socket.on('error', (error) => { console.log(error.code || error.message); process.exit(0); });
`;

/** Tries host:port from inside `service` (a service image: render, data or relay). */
export async function reach(
  stack: ComposeStack,
  service: string,
  host: string,
  port: number,
): Promise<Reach> {
  const out = await stack.compose('exec', '-T', service, 'node', '-e', CONNECT, host, String(port));
  return out.trim();
}

/**
 * Whether the Docker engine keeps its networks apart: a throwaway container on the default
 * bridge, outside the stack, tries host:port. Engines run with `--iptables=false` route between
 * all their networks, so only names (Docker's DNS) separate them there.
 */
export async function engineIsolatesNetworks(host: string, port: number): Promise<boolean> {
  const image = `strata-relay:${IMAGE_TAG}`;
  const out = await run([
    'docker',
    'run',
    '--rm',
    image,
    'node',
    '-e',
    CONNECT,
    host,
    String(port),
  ]);
  return out.trim() !== 'open';
}

/** The networks (compose names, without the project prefix) a service's container is on. */
export async function networksOf(stack: ComposeStack, service: string): Promise<string[]> {
  const id = await stack.containerOf(service);
  const raw = await run(['docker', 'inspect', '-f', '{{json .NetworkSettings.Networks}}', id]);
  const prefix = `${stack.project}_`;
  return Object.keys(JSON.parse(raw) as Record<string, unknown>)
    .map((name) => (name.startsWith(prefix) ? name.slice(prefix.length) : name))
    .sort();
}

/** Every address a service's container has, on any of its networks. */
export async function addressesOf(stack: ComposeStack, service: string): Promise<string[]> {
  const id = await stack.containerOf(service);
  const raw = await run([
    'docker',
    'inspect',
    '-f',
    '{{range .NetworkSettings.Networks}}{{.IPAddress}} {{end}}',
    id,
  ]);
  return raw.trim().split(/\s+/).filter(Boolean);
}

/** What Docker was told about a container, and the users its processes run as. */
export interface ContainerSecurity {
  readonly readOnlyRoot: boolean;
  readonly noNewPrivileges: boolean;
  readonly capDrop: readonly string[];
  readonly capAdd: readonly string[];
  readonly memoryBytes: number;
  /** Distinct uids of the container's processes. */
  readonly uids: readonly string[];
}

export async function securityOf(stack: ComposeStack, service: string): Promise<ContainerSecurity> {
  const id = await stack.containerOf(service);
  const host = JSON.parse(await run(['docker', 'inspect', '-f', '{{json .HostConfig}}', id])) as {
    ReadonlyRootfs: boolean;
    SecurityOpt: string[] | null;
    CapDrop: string[] | null;
    CapAdd: string[] | null;
    Memory: number;
  };
  // `docker top` needs a pid column; the uid is the second.
  const top = await run(['docker', 'top', id, '-eo', 'pid,uid']);
  const rows = top.trim().split('\n').slice(1);
  const uids = [...new Set(rows.map((row) => row.trim().split(/\s+/)[1] ?? ''))];
  return {
    readOnlyRoot: host.ReadonlyRootfs,
    noNewPrivileges: (host.SecurityOpt ?? []).includes('no-new-privileges:true'),
    capDrop: host.CapDrop ?? [],
    capAdd: host.CapAdd ?? [],
    memoryBytes: host.Memory,
    uids,
  };
}

/** The address of each container (by id) on one of the stack's networks. */
export async function addressesOn(
  stack: ComposeStack,
  network: string,
): Promise<Map<string, string>> {
  const format = '{{range $id, $c := .Containers}}{{$id}}={{$c.IPv4Address}} {{end}}';
  const raw = await run([
    'docker',
    'network',
    'inspect',
    '-f',
    format,
    `${stack.project}_${network}`,
  ]);
  return new Map(
    raw
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map((entry) => {
        const [id = '', cidr = ''] = entry.split('=');
        return [id, cidr.split('/')[0] ?? ''] as const;
      }),
  );
}
