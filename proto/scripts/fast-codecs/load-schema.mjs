// Reads the .proto files' descriptors through buf (the same compiler `buf generate` uses) into a
// @bufbuild/protobuf registry, which the planner walks.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createFileRegistry, fromBinary } from '@bufbuild/protobuf';
import { FileDescriptorSetSchema } from '@bufbuild/protobuf/wkt';

/** Every file of the buf module at `moduleDir` (with its imports), as a registry. */
export function loadSchema(moduleDir, bufBin) {
  const work = mkdtempSync(join(tmpdir(), 'strata-descriptors-'));
  try {
    const out = join(work, 'descriptors.binpb');
    execFileSync(bufBin, ['build', '--as-file-descriptor-set', '-o', out], {
      cwd: moduleDir,
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    return createFileRegistry(fromBinary(FileDescriptorSetSchema, readFileSync(out)));
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
