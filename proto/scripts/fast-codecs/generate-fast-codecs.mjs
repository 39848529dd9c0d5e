// Writes the fast codecs and method tables for the methods proto/fast-codecs.json names, beside
// ts-proto's output in `genRoot` (called by scripts/generate.mjs; the staleness check diffs both).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';
import { planService } from './codec-plan.mjs';
import { emitDecoders } from './emit-decoders.mjs';
import { emitEncoders } from './emit-encoders.mjs';
import { emitMethodTable } from './emit-method-table.mjs';
import { loadSchema } from './load-schema.mjs';

/**
 * The three files of one service, as { path relative to the gen root: source }; `wireDir` is
 * where the runtime primitives are, relative to the gen root.
 */
export function fastCodecFiles(registry, serviceName, methodNames, wireDir) {
  const plan = planService(registry, serviceName, methodNames);
  const base = plan.file.replace(/\.proto$/, '');
  const files = {
    decoders: `${base}_fast_decoders.ts`,
    encoders: `${base}_fast_encoders.ts`,
    methods: `${base}_methods.ts`,
  };
  // Up from the file's directory to the gen root, then to wireDir (never via the filesystem).
  const wire = (file) => {
    const depth = posix.dirname(file) === '.' ? 0 : posix.dirname(file).split('/').length;
    const path = posix.normalize('../'.repeat(depth) + wireDir);
    return path.startsWith('.') ? path : `./${path}`;
  };
  return {
    [files.decoders]: emitDecoders(plan, files.decoders, wire(files.decoders)),
    [files.encoders]: emitEncoders(plan, files.encoders, wire(files.encoders)),
    [files.methods]: emitMethodTable(plan, files.methods, wire(files.methods), files),
  };
}

/** Generates every service named in `configFile` into `genRoot`. */
export function generateFastCodecs({ moduleDir, configFile, genRoot, bufBin }) {
  const config = JSON.parse(readFileSync(configFile, 'utf8'));
  const registry = loadSchema(moduleDir, bufBin);
  for (const [serviceName, methodNames] of Object.entries(config.services)) {
    for (const [file, source] of Object.entries(
      // The runtime primitives (proto/src/wire) sit beside the gen root.
      fastCodecFiles(registry, serviceName, methodNames, '../wire'),
    )) {
      mkdirSync(dirname(join(genRoot, file)), { recursive: true });
      writeFileSync(join(genRoot, file), source);
    }
  }
}
