// The emitted code itself, on the test schema (sample-codecs.mjs): the answer's fast encoder must
// write ts-proto's bytes and its fast decoder read ts-proto's values, on random messages (and
// decline what they must). The request's encoder: emitted-request-encoders.test.mjs.
import * as fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateSampleCodecs } from './sample-codecs.mjs';

let generated;
let sample;
let fast;
let methods;

beforeAll(async () => {
  generated = await generateSampleCodecs();
  ({ sample, fast, methods } = generated);
});
afterAll(() => generated?.remove());

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
