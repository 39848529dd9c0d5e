// The gateway A/B scenario: two extra gateway containers on a running compose stack's networks,
// in front of the same render replicas, each with one side's infra/gateway files (a checkout's,
// or a git ref's); autocannon loads one, then the other. Needs the stack up with two render
// replicas (`docker-compose -p <PROJECT> up -d`) and these in the environment:
//   PROJECT       the stack's compose project (required)
//   GATEWAY_PATH  the page loaded (default /items)
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { resolveBaseline } from '../guard/baseline.mjs';
import { load, warmUp } from '../kit/load.mjs';
import { REPO } from '../kit/out.mjs';
import { gatewaySetup } from './lib/side-config.mjs';

export const name = 'gateway';
export const metrics = [{ key: 'requestsPerSecond', label: 'req/s', better: 'higher' }];

const sh = (file, ...args) => execFileSync(file, args, { encoding: 'utf8' }).trim();
const isDirectory = (path) => existsSync(path) && statSync(path).isDirectory();

/** Reads infra/gateway/<name> of a checkout or of a git ref; undefined when it has none. */
function gatewayFileReader(source) {
  if (isDirectory(source))
    return (file) => {
      const path = join(resolve(source), 'infra/gateway', file);
      return existsSync(path) ? readFileSync(path, 'utf8') : undefined;
    };
  const commit = resolveBaseline(REPO, source);
  return (file) => {
    try {
      return execFileSync('git', ['-C', REPO, 'show', `${commit}:infra/gateway/${file}`], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      });
    } catch {
      return undefined;
    }
  };
}

/** One side from the environment: <L> a checkout or a git ref (default this checkout). */
export const sideFromEnv = (env, label, defaultRoot) => ({ source: env[label] || defaultRoot });

export const plainSide = (root) => ({ source: root });

/** The render replicas' addresses on the stack's web network. */
function renderReplicas(project) {
  const ids = sh(
    'docker',
    'ps',
    '-q',
    '--filter',
    `label=com.docker.compose.project=${project}`,
    '--filter',
    'label=com.docker.compose.service=render',
  )
    .split('\n')
    .filter(Boolean);
  if (ids.length === 0) throw new Error(`no render replica runs in compose project ${project}`);
  return ids.map((id) =>
    sh(
      'docker',
      'inspect',
      '-f',
      `{{(index .NetworkSettings.Networks "${project}_web").IPAddress}}`,
      id,
    ),
  );
}

/** Starts one side's gateway on the stack's networks, published on a free loopback port. */
function startGateway(project, label, setup, dir, path) {
  const mounts = Object.keys(setup.files).flatMap((file) => {
    writeFileSync(join(dir, `${label}-${file}`), setup.files[file]);
    return ['-v', `${join(dir, `${label}-${file}`)}:/etc/nginx/${file}:ro`];
  });
  const id = sh(
    'docker',
    'run',
    '-d',
    '--rm',
    '--name',
    `${project}-ab-${label}`,
    '--network',
    `${project}_edge`,
    '-p',
    '127.0.0.1::8080',
    '--user',
    '101:101',
    '--read-only',
    '--tmpfs',
    '/tmp',
    ...mounts,
    'nginx:stable-bookworm',
    ...setup.command,
  );
  // Published through the stack's edge network (the web network is internal), like the gateway.
  sh('docker', 'network', 'connect', `${project}_web`, id);
  const port = sh('docker', 'port', id, '8080').split('\n')[0].split(':').pop();
  return { id, url: `http://127.0.0.1:${port}${path}` };
}

/** Starts both sides' gateways and warms them; a measurement loads one for `duration` s. */
export async function open(sides, { duration, connections = 32, warmup = 2 }) {
  const project = process.env.PROJECT;
  if (!project) throw new Error('PROJECT must name the running compose project');
  const path = process.env.GATEWAY_PATH || '/items';
  const replicas = renderReplicas(project);
  const dir = mkdtempSync(join(tmpdir(), 'gateway-ab-'));
  const gateways = {};
  const close = async () => {
    for (const gateway of Object.values(gateways))
      execFileSync('docker', ['rm', '-f', gateway.id], { stdio: 'ignore' });
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    for (const [label, side] of Object.entries(sides))
      gateways[label] = startGateway(
        project,
        label,
        gatewaySetup(gatewayFileReader(side.source), replicas),
        dir,
        path,
      );
    await new Promise((done) => setTimeout(done, 2000)); // start.sh resolves, nginx starts
    for (const gateway of Object.values(gateways))
      await warmUp({ url: gateway.url, connections }, warmup);
  } catch (error) {
    await close();
    throw error;
  }
  return {
    async measure(label) {
      const outcome = await load({ url: gateways[label].url, connections, duration });
      if (outcome.failed > 0) throw new Error(`${label}: ${outcome.failed} failed requests`);
      return { requestsPerSecond: outcome.perSecond };
    },
    close,
  };
}
