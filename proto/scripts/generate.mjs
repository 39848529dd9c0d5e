// Regenerates src/gen from the .proto files: ts-proto's messages and services (buf generate),
// and the fast codecs and method tables of the hot methods (fast-codecs/). Run after editing
// any .proto.
// With an output directory argument it generates there instead (used by the staleness check).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync, readFileSync, cpSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateFastCodecs } from './fast-codecs/generate-fast-codecs.mjs';

const protoRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const target = process.argv[2]
  ? resolve(process.cwd(), process.argv[2])
  : join(protoRoot, 'src/gen');
const bin = (name) => join(protoRoot, '..', 'node_modules', '.bin', name);

const work = mkdtempSync(join(tmpdir(), 'strata-proto-'));
try {
  execFileSync(bin('buf'), ['generate', '--output', work], { cwd: protoRoot, stdio: 'inherit' });
  rmSync(target, { recursive: true, force: true });
  cpSync(join(work, 'src/gen'), target, { recursive: true });
  generateFastCodecs({
    moduleDir: protoRoot,
    configFile: join(protoRoot, 'fast-codecs.json'),
    genRoot: target,
    bufBin: bin('buf'),
  });
  execFileSync(bin('prettier'), ['--log-level', 'warn', '--no-config', '--write', target], {
    stdio: 'inherit',
  });
  writeFileSync(
    join(target, 'README.md'),
    '# Generated code\n\nWritten by `npm run gen:proto` from `proto/**/*.proto`. Do not edit by hand.\n',
  );
  readFileSync(join(target, 'strata/catalog/v1/catalog_service.ts'));
} finally {
  rmSync(work, { recursive: true, force: true });
}
