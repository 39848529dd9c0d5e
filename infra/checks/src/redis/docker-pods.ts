/**
 * Pods of a cluster emulated with Docker, for the Sentinel checks: a user-defined network with a
 * fixed subnet, on which each pod is a container with its stable DNS name (a network alias,
 * `<pod>.<headless Service>.<namespace>.svc.cluster.local`) and an address of its own. A pod
 * replaced (removed, started again) keeps its name and gets the next, different address, as a
 * rescheduled pod does. Names that no container holds answer NXDOMAIN at once (nxdomain-dns.mjs
 * as the upstream of Docker's DNS), as cluster DNS answers for a deleted pod; Docker's own
 * forwarding to the host's resolvers made such a lookup wait 20 s here. Docker's CLI, not
 * testcontainers: it pins addresses (`--ip`) and sets the DNS upstream (`--dns`).
 */
import { execFile } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);
const LABEL = 'strata-check=sentinel-names';
const NODE_IMAGE = 'node:26-bookworm-slim';

export async function docker(...args: string[]): Promise<string> {
  const { stdout } = await execFileAsync('docker', args, { timeout: 60_000 });
  return stdout.trim();
}

/** What `docker run` gets for one pod besides its network settings. */
export interface PodSpec {
  readonly image: string;
  readonly command: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  /** host path → container path, read-only */
  readonly files: Readonly<Record<string, string>>;
  /** emptyDir volumes: tmpfs owned by `user` */
  readonly emptyDirs: readonly string[];
  readonly user: number;
}

export interface DockerPods {
  /** The address the pod has now (undefined while it is gone). */
  address(pod: string): string | undefined;
  /** Starts the pod under its name with a new address. */
  start(pod: string, fqdn: string, spec: PodSpec): Promise<string>;
  /** Runs a command in the pod's container; its standard output. */
  exec(pod: string, command: readonly string[]): Promise<string>;
  /** SIGKILL and removal: the pod is gone, its name answers NXDOMAIN. */
  remove(pod: string): Promise<void>;
  /** A container on the network running a Node.js script of the repository (mounted read-only). */
  startScript(name: string, script: string, env: Readonly<Record<string, string>>): Promise<string>;
  stop(): Promise<void>;
}

export async function startDockerPods(): Promise<DockerPods> {
  const network = `strata-check-sentinel-${randomInt(1_000_000)}`;
  let prefix = '';
  for (let attempt = 0; !prefix; attempt += 1) {
    const candidate = `172.28.${randomInt(256)}`;
    try {
      await docker('network', 'create', '--label', LABEL, '--subnet', `${candidate}.0/24`, network);
      prefix = candidate;
    } catch (error) {
      if (attempt >= 10) throw error; // the subnet overlaps another network: try another
    }
  }
  const containers = new Map<string, string>();
  const addresses = new Map<string, string>();
  let nextHost = 10;
  const dnsAddress = `${prefix}.2`;
  const run = async (name: string, address: string, args: string[]) => {
    const placement = ['--network', network, '--ip', address, '--dns', dnsAddress];
    const id = await docker('run', '-d', '--label', LABEL, ...placement, ...args);
    containers.set(name, id);
    return id;
  };
  const repository = fileURLToPath(new URL('../../../../', import.meta.url));
  const dnsScript = fileURLToPath(new URL('nxdomain-dns.mjs', import.meta.url));
  await run('dns', dnsAddress, ['-v', `${dnsScript}:/dns.mjs:ro`, NODE_IMAGE, 'node', '/dns.mjs']);

  const pods: DockerPods = {
    address: (pod) => addresses.get(pod),
    async start(pod, fqdn, spec) {
      const address = `${prefix}.${nextHost++}`;
      const args = ['--hostname', pod, '--network-alias', fqdn, '--read-only'];
      args.push('--user', `${spec.user}:${spec.user}`);
      for (const dir of spec.emptyDirs)
        args.push('--tmpfs', `${dir}:uid=${spec.user},gid=${spec.user},mode=0700`);
      for (const [from, to] of Object.entries(spec.files)) args.push('-v', `${from}:${to}:ro`);
      for (const [key, value] of Object.entries(spec.env)) args.push('-e', `${key}=${value}`);
      await run(pod, address, [...args, spec.image, ...spec.command]);
      addresses.set(pod, address);
      return address;
    },
    async exec(pod, command) {
      const id = containers.get(pod);
      if (!id) throw new Error(`${pod} is not running`);
      return docker('exec', id, ...command);
    },
    async remove(pod) {
      const id = containers.get(pod);
      containers.delete(pod);
      addresses.delete(pod);
      if (id) await docker('rm', '-f', id);
    },
    async startScript(name, script, env) {
      const address = `${prefix}.${nextHost++}`;
      const args = ['-v', `${repository}:${repository}:ro`, '-w', repository];
      for (const [key, value] of Object.entries(env)) args.push('-e', `${key}=${value}`);
      await run(name, address, [...args, NODE_IMAGE, 'node', script]);
      addresses.set(name, address);
      return address;
    },
    async stop() {
      const ids = [...containers.values()];
      if (ids.length > 0) await docker('rm', '-f', ...ids).catch(() => '');
      await docker('network', 'rm', network).catch(() => '');
    },
  };
  return pods;
}
