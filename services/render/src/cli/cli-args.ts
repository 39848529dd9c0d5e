/**
 * `strata <command> [flags]`: what the command line asks for, or a UsageError saying what is
 * wrong with it. Pure (no I/O), so every mistake's message is unit-tested.
 */
import { parseArgs } from 'node:util';

export const USAGE = `Usage: strata <command> [flags]

Commands, run in an app's folder (its package.json exports "." and "./client"):
  dev     build, serve and rebuild on every change, reloading the open page (development)
  build   compile src/ to dist/ and bundle the browser side into dist/public/assets
  start   serve the build (production: NODE_ENV=production, reads ./.env if present)

Flags:
  --port <n>   port to serve on (dev, start); default PORT or 3000
  --help       this text`;

export type CliCommand =
  | { readonly command: 'help' }
  | { readonly command: 'build' }
  | { readonly command: 'dev' | 'start'; readonly port: number | undefined };

/** A command line the CLI cannot run; its message says why and the CLI prints the usage. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

const COMMANDS = ['dev', 'build', 'start'] as const;

/** Parses `argv` (without node and the script); throws UsageError for anything unknown. */
export function parseCli(argv: readonly string[]): CliCommand {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: { port: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    });
  } catch (error) {
    // parseArgs' messages name the flag ("Unknown option '--prot'").
    throw new UsageError((error as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help) return { command: 'help' };
  const [command, ...extra] = positionals;
  if (command === undefined) throw new UsageError('No command given.');
  if (!(COMMANDS as readonly string[]).includes(command))
    throw new UsageError(`Unknown command "${command}" (expected ${COMMANDS.join(', ')}).`);
  if (extra.length > 0) throw new UsageError(`Unexpected argument "${extra[0]}".`);
  if (command === 'build') {
    if (values.port !== undefined) throw new UsageError('`strata build` takes no --port.');
    return { command };
  }
  return {
    command: command as 'dev' | 'start',
    port: values.port === undefined ? undefined : parsePort(values.port),
  };
}

/** A TCP port from its text: 1–65535. */
export function parsePort(text: string): number {
  const port = Number(text);
  if (!/^\d+$/.test(text) || port < 1 || port > 65_535)
    throw new UsageError(`--port must be a number from 1 to 65535, not "${text}".`);
  return port;
}
