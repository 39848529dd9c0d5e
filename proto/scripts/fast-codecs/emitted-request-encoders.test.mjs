// The emitted request encoder on the test schema (sample-codecs.mjs): GetBoxRequest has every
// kind a request may hold (int32 and an open enum besides the answers' kinds, a nested message
// only the request reaches). The fast encoder must write ts-proto's bytes; for negative,
// fractional or out-of-range int32s it declines and the method table's requestSerialize ends
// up exactly where ts-proto does (the same bytes, or the same error).
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

const INT32_MAX = 2 ** 31 - 1;
const text = fc.oneof(fc.constant(''), fc.string({ unit: 'grapheme', maxLength: 20 }));
const uint = fc.oneof(fc.constantFrom(0, 1, 127, 128, 2 ** 32), fc.maxSafeNat());
const int32 = fc.oneof(
  fc.constantFrom(0, 1, 127, 128, 16_383, 16_384, INT32_MAX),
  fc.integer({ min: 0, max: INT32_MAX }),
);
// Open enum: numbers the enum does not name travel as they are.
const colour = fc.oneof(fc.constantFrom(0, 1, 2), int32);
const request = (number, small, shade) =>
  fc.record({
    id: number,
    name: text,
    limit: small,
    colour: shade,
    labels: fc.array(text, { maxLength: 4 }),
    window: fc.option(fc.record({ offset: small, colour: shade, after: text }), { nil: undefined }),
    farLimit: small,
  });
const clientRequest = request(uint, int32, colour);
const negativeInt32 = fc.integer({ min: -(2 ** 31), max: -1 });
const anyRequest = request(
  fc.oneof(uint, fc.integer({ min: -1000, max: -1 })),
  fc.oneof(int32, negativeInt32),
  fc.oneof(colour, negativeInt32),
);
const tsProtoBytes = (message) => Buffer.from(sample.GetBoxRequest.encode(message).finish());
/** What `encode` does with `message`: its bytes, or the message of the error it throws. */
const outcome = (encode, message) => {
  try {
    return { bytes: encode(message) };
  } catch (error) {
    return { error: error.message };
  }
};

describe('the emitted request encoder (test schema)', () => {
  it('encodes what the fast path supports byte-identically to ts-proto', () => {
    fc.assert(
      fc.property(clientRequest, (message) => {
        expect(fast.encodeGetBoxRequest(message)).toEqual(tsProtoBytes(message));
      }),
      { numRuns: 500 },
    );
  });

  it('writes every field set, two-byte tag included', () => {
    const message = {
      id: 2 ** 40,
      name: 'boîte',
      limit: 1,
      colour: 2,
      labels: ['a', ''],
      window: { offset: INT32_MAX, colour: 7, after: '日本' },
      farLimit: 300,
    };
    const bytes = fast.encodeGetBoxRequest(message);
    expect(bytes).toEqual(tsProtoBytes(message));
    expect(sample.GetBoxRequest.decode(bytes)).toEqual(message);
    expect(fast.encodeGetBoxRequest(sample.GetBoxRequest.fromPartial({}))).toEqual(Buffer.alloc(0));
  });

  it('declines negative int32s and enums, which ts-proto sign-extends to ten bytes', () => {
    const base = fc.sample(clientRequest, 1)[0];
    const declined = [
      { ...base, limit: -1 },
      { ...base, colour: -1 }, // ts-proto's UNRECOGNIZED
      { ...base, farLimit: -(2 ** 31) },
      { ...base, window: { offset: -5, colour: 0, after: '' } },
    ];
    for (const message of declined) {
      expect(fast.encodeGetBoxRequest(message)).toBeUndefined();
      expect(methods.getBox.requestSerialize(message)).toEqual(tsProtoBytes(message));
    }
    fc.assert(
      fc.property(anyRequest, (message) => {
        expect(methods.getBox.requestSerialize(message)).toEqual(tsProtoBytes(message));
      }),
      { numRuns: 500 },
    );
  });

  it.each([
    ['a fraction', 1.5, 'throws'],
    ['2^31', 2 ** 31, 'throws'],
    ['NaN', NaN, 'throws'],
    ['undefined', undefined, 'throws'],
    ['a numeric string', '7', 'writes it'],
  ])('declines %s, and the table does what ts-proto does (%s)', (_, value, tsProtoDoes) => {
    const message = { ...fc.sample(clientRequest, 1)[0], limit: value };
    expect(fast.encodeGetBoxRequest(message)).toBeUndefined();
    const expected = outcome(tsProtoBytes, message);
    expect('error' in expected ? 'throws' : 'writes it').toBe(tsProtoDoes);
    expect(outcome(methods.getBox.requestSerialize, message)).toEqual(expected);
  });
});
