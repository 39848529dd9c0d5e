#!/usr/bin/env node
/**
 * `create-strata-app <dir> [--packs <folder>]`: writes a new app into <dir> (missing or empty)
 * and prints the next steps. STRATA_PACKS stands for --packs.
 */
import { parseArgs } from 'node:util';
import { scaffold, ScaffoldError } from './scaffold.js';

const USAGE = `Usage: create-strata-app <dir> [--packs <folder>]

  <dir>             folder to create the app in (missing or empty)
  --packs <folder>  depend on the @strata tarballs in <folder> (npm run pack) instead of a
                    registry; STRATA_PACKS does the same`;

function main(): void {
  let values;
  let positionals;
  try {
    ({ values, positionals } = parseArgs({
      allowPositionals: true,
      options: { packs: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    }));
  } catch (error) {
    fail(`${(error as Error).message}\n\n${USAGE}`, 2);
  }
  if (values.help) return void console.log(USAGE);
  if (positionals.length !== 1)
    fail(`${positionals.length === 0 ? 'No folder given.' : 'Give one folder.'}\n\n${USAGE}`, 2);
  const packs = values.packs ?? (process.env['STRATA_PACKS'] || undefined);
  try {
    const target = positionals[0]!;
    const { directory, name } = scaffold({ target, packs });
    console.log(`Created ${name} in ${directory}.

Next:
  cd ${target}
  npm install
  npx strata dev        # http://localhost:3000, reloads after every change

Production: npx strata build && npx strata start`);
  } catch (error) {
    if (error instanceof ScaffoldError) fail(error.message, 1);
    throw error;
  }
}

function fail(message: string, code: number): never {
  console.error(`create-strata-app: ${message}`);
  process.exit(code);
}

main();
