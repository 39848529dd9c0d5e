#!/usr/bin/env node
/**
 * `strata`: the command line of an app's folder (`strata dev`, `strata build`, `strata start`).
 * Parses the command, checks the folder, runs the command; mistakes end with a sentence and exit
 * code 2 (usage) or 1 (the folder, the port or the build), never a stack.
 */
import { AppFolderError, readAppFolder } from './app-folder.js';
import { buildApp } from './build-command.js';
import { parseCli, USAGE, UsageError } from './cli-args.js';
import { devCommand } from './dev/dev-command.js';
import { PortInUseError } from './port-check.js';
import { startCommand } from './start-command.js';

async function run(argv: readonly string[]): Promise<void> {
  const cli = parseCli(argv);
  if (cli.command === 'help') {
    console.log(USAGE);
    return;
  }
  const app = readAppFolder(process.cwd());
  if (cli.command === 'build') {
    const started = Date.now();
    const { files, client } = await buildApp(app);
    console.log(
      `strata build: ${app.name}: ${files} files compiled to dist/, client bundle ${client} (${Date.now() - started} ms)`,
    );
  } else if (cli.command === 'start') process.exitCode = await startCommand(app, cli.port);
  else await devCommand(app, cli.port);
}

run(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof UsageError) {
    console.error(`strata: ${error.message}\n\n${USAGE}`);
    process.exit(2);
  }
  if (error instanceof AppFolderError || error instanceof PortInUseError) {
    console.error(`strata: ${error.message}`);
    process.exit(1);
  }
  // A build error: esbuild's message names the file and line.
  console.error(`strata: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
