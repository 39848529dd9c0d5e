// What a gateway side runs, as data: its configuration files (read from a checkout or from a git
// ref) and the container command they call for. A side whose checkout has `start.sh` runs it
// (upstream blocks written from DNS); an older one, a fixed `upstream` naming the replicas
// `render-1` and `render-2`, gets those names replaced by the replicas' addresses. Pure.

/** The gateway's files a side may have, under infra/gateway/. */
export const GATEWAY_FILES = ['nginx.conf', 'start.sh', 'browser-headers.conf'];

const FIXED_REPLICAS = ['render-1:3000', 'render-2:3000'];

/**
 * The files to mount for a side (`{ name: text }`, from `read(name)`, which answers undefined
 * for a file the side does not have) and the command that starts nginx with them. `replicas`:
 * the render replicas' addresses, for a configuration that names them.
 */
export function gatewaySetup(read, replicas) {
  const files = {};
  for (const name of GATEWAY_FILES) {
    const text = read(name);
    if (text !== undefined) files[name] = text;
  }
  if (files['nginx.conf'] === undefined) throw new Error('no infra/gateway/nginx.conf');
  if (files['start.sh'] !== undefined) return { files, command: ['sh', '/etc/nginx/start.sh'] };
  return {
    files: { ...files, 'nginx.conf': withReplicaAddresses(files['nginx.conf'], replicas) },
    command: ['nginx', '-e', 'stderr', '-g', 'daemon off;'],
  };
}

/** A fixed-upstream configuration with its two replica names replaced by `replicas`' addresses. */
export function withReplicaAddresses(conf, replicas) {
  if (replicas.length !== FIXED_REPLICAS.length)
    throw new Error(
      `a fixed upstream needs ${FIXED_REPLICAS.length} render replicas, not ${replicas.length}`,
    );
  let out = conf;
  FIXED_REPLICAS.forEach((name, index) => {
    if (!out.includes(name))
      throw new Error(`nginx.conf has neither start.sh nor a fixed upstream naming ${name}`);
    out = out.replace(name, `${replicas[index]}:3000`);
  });
  return out;
}
