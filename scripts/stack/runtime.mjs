// The Node release line Strata runs on. The project brings it: the `node` devDependency in the
// root package.json is the official build from the npm registry, and npm puts its
// `node_modules/.bin/node` first on PATH for every `npm run`, `npm start`, `npm test` and `npx`,
// so those run on it whatever node the machine has (docs/development.md, "Runtime").
import { readFileSync } from 'node:fs';

const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));

/** The pinned runtime version, e.g. "24.21.0". */
export const RUNTIME_VERSION = manifest.devDependencies.node;
/** Its major, the `node:<major>-bookworm-slim` images' line. */
export const RUNTIME_MAJOR = Number(RUNTIME_VERSION.split('.')[0]);

/** Stops with a clear message when this process runs on an older node than the runtime. */
export function requireRuntime(command) {
  const major = Number(process.versions.node.split('.')[0]);
  if (major >= RUNTIME_MAJOR) return;
  console.error(
    `[strata] ${command} needs Node ${RUNTIME_MAJOR} or newer; this is ${process.version}. ` +
      `Run it through npm (npm start, npm test, npx …), which uses the Node ${RUNTIME_VERSION} ` +
      'in node_modules/.bin that `npm ci` installs.',
  );
  process.exit(1);
}
