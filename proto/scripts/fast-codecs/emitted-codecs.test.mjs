// The emitted code itself, on the test schema: ts-proto's output and the fast codecs generated
// side by side into a scratch directory, then the fast encoders must write ts-proto's bytes and
// the fast decoders read ts-proto's values, on random messages (and decline what they must).
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, posix, relative } from 'node:path';
import * as fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fastCodecFiles } from './generate-fast-codecs.mjs';
import { bin, here, loadSampleSchema, testdata } from './test-schema.mjs';

// Inside the repository, so the generated files resolve @bufbuild/protobuf and src/wire.
const scratch = mkdtempSync(join(here, '.scratch-'));
const wire = join(here, '..', '..', 'src', 'wire');
let sample;
let fast;
let methods;

beforeAll(async () => {
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
  sample = await import(join(scratch, 'sample.ts'));
  fast = {
    ...(await import(join(scratch, 'sample_fast_encoders.ts'))),
    ...(await import(join(scratch, 'sample_fast_decoders.ts'))),
  };
  methods = (await import(join(scratch, 'sample_methods.ts'))).boxServiceMethods;
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const text = fc.oneof(fc.constant(''), fc.string({ unit: 'grapheme', maxLength: 20 }));
const uint = fc.oneof(fc.constantFrom(0, 1, 127, 128, 2 ** 32), fc.maxSafeNat());
const part = (number) => fc.record({ id: number, label: text });
const box = (number, time) =>
  fc.record({
    id: number,
    name: text,
    labels: fc.array(text, { maxLength: 4 }),
    mainPart: fc.option(part(number), { nil: undefined }),
    parts: fc.array(part(number), { maxLength: 4 }),
    sealedAt: fc.option(time, { nil: undefined }),
    serialNumber: number,
    farLabel: text,
  });
const postEpoch = fc.date({ min: new Date(0), max: new Date('2200-01-01'), noInvalidDate: true });
const serviceBox = box(uint, postEpoch);
// The decoders read varints of up to 7 bytes (below 2^49) themselves; longer ones go to ts-proto.
const decodableBox = box(fc.integer({ min: 0, max: 2 ** 49 - 1 }), postEpoch);
const anyBox = box(
  fc.oneof(uint, fc.integer({ min: -1000, max: -1 })),
  fc.date({ min: new Date('1950-01-01'), max: new Date('2200-01-01'), noInvalidDate: true }),
);
const tsProtoBytes = (message) => Buffer.from(sample.Box.encode(message).finish());

describe('the emitted codecs (test schema)', () => {
  it('encode what the fast path supports byte-identically to ts-proto', () => {
    fc.assert(
      fc.property(serviceBox, (message) => {
        expect(fast.encodeBox(message)).toEqual(tsProtoBytes(message));
      }),
      { numRuns: 500 },
    );
  });

  it('decode to exactly what ts-proto decodes, two-byte tags included', () => {
    fc.assert(
      fc.property(decodableBox, (message) => {
        const bytes = tsProtoBytes(message);
        expect(fast.decodeBoxFast(bytes)).toStrictEqual(sample.Box.decode(bytes));
      }),
      { numRuns: 500 },
    );
  });

  it('decline negative numbers and pre-1970 dates, which the method table gives to ts-proto', () => {
    const negative = { ...fc.sample(serviceBox, 1)[0], serialNumber: -1 };
    expect(fast.encodeBox(negative)).toBeUndefined();
    expect(
      fast.encodeBox({ ...negative, serialNumber: 0, sealedAt: new Date(-1) }),
    ).toBeUndefined();
    fc.assert(
      fc.property(anyBox, (message) => {
        const bytes = tsProtoBytes(message);
        expect(methods.getBox.responseSerialize(message)).toEqual(bytes);
        expect(methods.getBox.responseDeserialize(bytes)).toStrictEqual(sample.Box.decode(bytes));
      }),
      { numRuns: 500 },
    );
  });

  it('leave an unknown field to ts-proto', () => {
    const bytes = Buffer.concat([
      tsProtoBytes(fc.sample(serviceBox, 1)[0]),
      Buffer.from([0x78, 1]),
    ]);
    expect(() => fast.decodeBoxFast(bytes)).toThrow('left to ts-proto');
    expect(methods.getBox.responseDeserialize(bytes)).toStrictEqual(sample.Box.decode(bytes));
  });

  it('keep every other method as ts-proto generated it', () => {
    expect(methods.getFlag).toBe(sample.BoxServiceService.getFlag);
    expect(methods.getBox.path).toBe('/sample.v1.BoxService/GetBox');
  });
});
