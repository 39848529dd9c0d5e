// The emitted code on the test schema, for the emitted-code tests: ts-proto's output and the
// fast codecs generated side by side into a scratch directory, then imported.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, posix, relative } from 'node:path';
import { fastCodecFiles } from './generate-fast-codecs.mjs';
import { bin, here, loadSampleSchema, testdata } from './test-schema.mjs';

const wire = join(here, '..', '..', 'src', 'wire');

/**
 * Generates BoxService's GetBox codecs and imports them: `sample` (ts-proto's module), `fast`
 * (the encoders and decoders), `methods` (the method table); `remove` deletes the scratch copy.
 */
export async function generateSampleCodecs() {
  // Inside the repository, so the generated files resolve @bufbuild/protobuf and src/wire.
  const scratch = mkdtempSync(join(here, '.scratch-'));
  const template = {
    version: 'v2',
    plugins: [
      {
        local: bin('protoc-gen-ts_proto'),
        out: scratch,
        // The contracts' options (proto/buf.gen.yaml) that shape messages.
        opt: ['outputServices=grpc-js', 'forceLong=number', 'useDate=true', 'env=node'],
      },
    ],
  };
  execFileSync(bin('buf'), ['generate', '--template', JSON.stringify(template)], {
    cwd: testdata,
  });
  const files = fastCodecFiles(
    loadSampleSchema(),
    'sample.v1.BoxService',
    ['GetBox'],
    posix.normalize(relative(scratch, wire)),
  );
  for (const [file, source] of Object.entries(files)) {
    mkdirSync(dirname(join(scratch, file)), { recursive: true });
    writeFileSync(join(scratch, file), source);
  }
  return {
    sample: await import(join(scratch, 'sample.ts')),
    fast: {
      ...(await import(join(scratch, 'sample_fast_encoders.ts'))),
      ...(await import(join(scratch, 'sample_fast_decoders.ts'))),
    },
    methods: (await import(join(scratch, 'sample_methods.ts'))).boxServiceMethods,
    remove: () => rmSync(scratch, { recursive: true, force: true }),
  };
}
