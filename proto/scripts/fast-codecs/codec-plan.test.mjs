import { beforeAll, describe, expect, it } from 'vitest';
import { planService, propertyName, tagBytes } from './codec-plan.mjs';
import { loadSampleSchema } from './test-schema.mjs';

let registry;
beforeAll(() => {
  registry = loadSampleSchema();
});
const plan = (...methods) => planService(registry, 'sample.v1.BoxService', methods);

describe('the codec plan', () => {
  it('covers the answer and every message it reaches, dependencies first', () => {
    const { methods, messages } = plan('GetBox');
    expect(methods).toEqual([
      {
        name: 'GetBox',
        property: 'getBox',
        request: 'sample.v1.GetBoxRequest',
        response: 'sample.v1.Box',
      },
    ]);
    expect(messages.map((m) => m.typeName)).toEqual(['sample.v1.Part', 'sample.v1.Box']);
  });

  it('covers the request and what it reaches apart, to be encoded only', () => {
    const { requestMessages } = plan('GetBox');
    expect(requestMessages.map((m) => m.typeName)).toEqual([
      'sample.v1.Window',
      'sample.v1.GetBoxRequest',
    ]);
    const summary = requestMessages[1].fields.map((f) => [f.property, f.kind, f.tag]);
    expect(summary).toEqual([
      ['id', 'int64', [0x08]],
      ['name', 'string', [0x12]],
      ['limit', 'int32', [0x18]],
      ['colour', 'enum', [0x20]],
      ['labels', 'string', [0x2a]],
      ['window', 'message', [0x32]],
      ['farLimit', 'int32', [0xc0, 0x02]],
    ]);
  });

  it('plans a message both sides reach once, with the answers', () => {
    const { messages, requestMessages } = plan('FindByPart');
    expect(messages.map((m) => m.typeName)).toEqual(['sample.v1.Part', 'sample.v1.Box']);
    expect(requestMessages).toEqual([]);
  });

  it('gives every field its kind, ts-proto property name and tag', () => {
    const box = plan('GetBox').messages[1];
    const summary = box.fields.map((f) => [f.property, f.kind, f.repeated, f.tag, f.tagValue]);
    expect(summary).toEqual([
      ['id', 'int64', false, [0x08], 8],
      ['name', 'string', false, [0x12], 18],
      ['labels', 'string', true, [0x1a], 26],
      ['mainPart', 'message', false, [0x22], 34],
      ['parts', 'message', true, [0x2a], 42],
      ['sealedAt', 'timestamp', false, [0x32], 50],
      ['serialNumber', 'int64', false, [0xa0, 0x01], 160],
      ['farLabel', 'string', false, [0xe2, 0x12], 2402],
    ]);
    expect(box.fields[3].messageType).toBe('sample.v1.Part');
  });

  it('plans a message shared by two methods once', () => {
    expect(plan('GetBox', 'GetBox').messages).toHaveLength(2);
  });

  it.each([
    ['GetFlag', 'sample.v1.WithBool.flag is scalar type bool'],
    ['GetBlob', 'sample.v1.WithBytes.blob is scalar type bytes'],
    ['GetColour', 'sample.v1.WithEnum.colour is an enum (sample.v1.Colour) in a response'],
    ['GetIndex', 'sample.v1.WithMap.index is a map'],
    ['GetMaybe', 'sample.v1.WithOptional.maybe is an optional scalar'],
    ['GetNumbers', 'sample.v1.WithRepeatedInt64.numbers is a repeated int64'],
    ['GetNested', 'sample.v1.WithBool.flag is scalar type bool'],
    ['GetCount', 'sample.v1.WithInt32.count is an int32 in a response, which the fast decoders'],
    ['FindByCounts', 'sample.v1.WithRepeatedInt32.counts is a repeated int32'],
    ['FindByFlag', 'sample.v1.WithBool.flag is scalar type bool'],
  ])('refuses %s, naming the field: %s', (method, message) => {
    expect(() => plan(method)).toThrow(message);
  });

  it('refuses streaming and unknown methods and services', () => {
    expect(() => plan('WatchBoxes')).toThrow('sample.v1.BoxService.WatchBoxes is not unary');
    expect(() => plan('GetBoxes')).toThrow('sample.v1.BoxService has no method GetBoxes');
    expect(() => planService(registry, 'sample.v1.Nothing', [])).toThrow('no service');
  });
});

describe('wire helpers', () => {
  it('encode tags as varints', () => {
    expect(tagBytes(1, 0)).toEqual([8]);
    expect(tagBytes(15, 2)).toEqual([122]);
    expect(tagBytes(16, 0)).toEqual([0x80, 0x01]);
    expect(tagBytes(2048, 2)).toEqual([0x82, 0x80, 0x01]);
  });

  it('name properties as ts-proto does', () => {
    expect(propertyName('price_cents')).toBe('priceCents');
    expect(propertyName('next_page_token')).toBe('nextPageToken');
    expect(propertyName('v2_name')).toBe('v2Name');
  });
});
