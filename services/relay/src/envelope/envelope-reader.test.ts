import { describe, expect, it } from 'vitest';
import { nestingWithin, parseBoundedObject } from './bounded-json.js';
import { createEnvelopeReader, type ReaderLimits } from './envelope-reader.js';
import type { ItemAdmission } from './item-admission.js';
import { printable } from './header-lines.js';

const enc = new TextEncoder();
const bytes = (text: string) => enc.encode(text);
const LIMITS: ReaderLimits = {
  maxEnvelopeBytes: 10_000,
  maxHeaderBytes: 64,
  maxItems: 10,
  maxJsonDepth: 8,
};
/** Every item may have at most 16 bytes. */
const SIXTEEN: ItemAdmission = {
  start: () => ({ maxBytes: 16, name: 'the 16-byte test limit' }),
  end: () => undefined,
};

/** Feeds `input` in pieces of `size` bytes; returns the problem and how many bytes it took. */
function feed(input: Uint8Array, size: number, limits = LIMITS, admission = SIXTEEN) {
  const reader = createEnvelopeReader(limits, admission);
  for (let at = 0; at < input.length; at += size) {
    const problem = reader.push(input.subarray(at, at + size));
    if (problem) return { problem, consumed: Math.min(at + size, input.length), reader };
  }
  const result = reader.finish();
  return { problem: result.ok ? null : result.error, consumed: input.length, reader, result };
}

function mulberry32(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('createEnvelopeReader: refusing at the first byte over a limit', () => {
  it('refuses an envelope header line over the limit before its newline arrives', () => {
    const input = bytes(`{"dsn":"${'k'.repeat(200)}"}\n{"type":"event"}\n{}`);
    const { problem, consumed } = feed(input, 1);
    expect(problem).toMatchObject({ code: 'header-too-large', offset: 0 });
    expect(consumed).toBe(LIMITS.maxHeaderBytes + 1);
  });

  it('refuses an item header line over the limit', () => {
    const input = bytes(`{}\n{"type":"event","pad":"${'p'.repeat(100)}"}\n{}`);
    expect(feed(input, 7).problem).toMatchObject({ code: 'header-too-large', offset: 3 });
  });

  it('accepts header lines exactly at the limit', () => {
    const header = `{"p":"${'p'.repeat(LIMITS.maxHeaderBytes - 8)}"}`;
    const itemHeader = `{"type":"${'t'.repeat(LIMITS.maxHeaderBytes - 11)}"}`;
    expect([header.length, itemHeader.length]).toEqual([64, 64]);
    expect(feed(bytes(`${header}\n${itemHeader}\n{}`), 5).problem).toBeNull();
  });

  it('refuses a declared length over the item budget from the header alone', () => {
    const input = bytes('{}\n{"type":"hologram","length":17}\n');
    const { problem } = feed(input, 1000);
    expect(problem).toMatchObject({ code: 'item-too-large' });
    expect(problem?.message).toBe(
      'item 0 (hologram) declares 17 bytes, over the 16-byte test limit',
    );
  });

  it('refuses an implicit-length payload once it passes the budget, without its newline', () => {
    const input = bytes(`{}\n{"type":"hologram"}\n${'x'.repeat(1000)}`);
    const { problem, consumed } = feed(input, 1);
    expect(problem?.message).toBe('item 0 (hologram) is over the 16-byte test limit');
    expect(consumed).toBe('{}\n{"type":"hologram"}\n'.length + 17);
  });

  it('refuses an item its admission refuses outright', () => {
    const once: ItemAdmission = {
      start: (type) => (type === 'session' ? 'no sessions here' : { maxBytes: 99, name: 'x' }),
      end: () => undefined,
    };
    const { problem } = feed(bytes('{}\n{"type":"session"}\n{}'), 4, LIMITS, once);
    expect(problem).toMatchObject({
      code: 'item-too-large',
      message: 'item 0 (session): no sessions here',
    });
  });

  it('refuses the envelope past its total size', () => {
    const item = '{"type":"e"}\n0123456789\n';
    const input = bytes(`{}\n${item.repeat(10)}`);
    const limits = { ...LIMITS, maxEnvelopeBytes: 100 };
    expect(feed(input, 10, limits).problem).toMatchObject({ code: 'envelope-too-large' });
  });

  it('refuses header lines nested deeper than the JSON depth limit', () => {
    const deep = `{"a":${'['.repeat(9)}${']'.repeat(9)}}`;
    expect(feed(bytes(`${deep}\n`), 3).problem).toMatchObject({
      code: 'header-not-json',
      message: 'the envelope header nests deeper than 8 levels',
    });
  });

  it('names attacker-chosen item types only in a short, printable form', () => {
    const type = `evil\r\nSet-Cookie: x${'y'.repeat(100)}`;
    const input = bytes(`{}\n${JSON.stringify({ type, length: 99 })}\n`);
    const limits = { ...LIMITS, maxHeaderBytes: 1000 };
    const { problem } = feed(input, 1000, limits);
    expect(problem?.message).toMatch(/^item 0 \(evil\?\?Set-Cookie: xy+\.\.\.\) declares 99 bytes/);
    expect(printable('a\u0000b')).toBe('a?b');
  });
});

describe('createEnvelopeReader: the header before the items', () => {
  it('hands out the envelope header as soon as its line is complete', () => {
    const reader = createEnvelopeReader(LIMITS, SIXTEEN);
    reader.push(bytes('{"dsn":"https://k@h/1"'));
    expect(reader.header()).toBeUndefined();
    reader.push(bytes('}\n{"type":"ev'));
    expect(reader.header()).toEqual({ dsn: 'https://k@h/1' });
  });
});

describe('createEnvelopeReader: pieces read as the whole', () => {
  const sample = new Uint8Array([
    ...bytes('{"event_id":"abc"}\n{"type":"event"}\n{"message":"m"}\n'),
    ...bytes('{"type":"attachment","length":6}\n'),
    0,
    10,
    13,
    10,
    255,
    10,
    ...bytes('\n{"type":"client_report"}\n{"d":[]}'),
  ]);
  const generous = { ...LIMITS, maxHeaderBytes: 1000 };
  const open: ItemAdmission = {
    start: () => ({ maxBytes: 1000, name: 'x' }),
    end: () => undefined,
  };

  it('gives the same result for any split of 3000 mutated inputs', () => {
    const random = mulberry32(0xc0ffee);
    const alphabet = [0x0a, 0x0d, 0x7b, 0x7d, 0x22, 0x3a, 0x30, 0x36, 0x5b, 0x00];
    const mismatches: string[] = [];
    for (let round = 0; round < 3000; round += 1) {
      const input = sample.slice(0, Math.floor(random() * (sample.length + 1)));
      for (let m = Math.floor(random() * 4); m > 0 && input.length > 0; m -= 1) {
        input[Math.floor(random() * input.length)] = alphabet[Math.floor(random() * 10)]!;
      }
      const whole = feed(input, input.length || 1, generous, open);
      const split = feed(input, 1 + Math.floor(random() * 8), generous, open);
      const summary = (run: typeof whole) =>
        run.problem
          ? `${run.problem.code}@${run.problem.offset}`
          : JSON.stringify(
              run.result?.ok &&
                run.result.envelope.items.map((item) => [item.type, [...item.payload]]),
            );
      if (summary(whole) !== summary(split)) {
        mismatches.push(`round ${round}: ${summary(whole)} vs ${summary(split)}`);
      }
    }
    expect(mismatches).toEqual([]);
  });
});

describe('bounded JSON', () => {
  it('counts nesting outside strings only, escaped quotes included', () => {
    const text = '{"a":"[[[[\\"[[[[","b":[[1]]}';
    expect(nestingWithin(bytes(text), 3)).toBe(true);
    expect(nestingWithin(bytes(text), 2)).toBe(false);
    expect(nestingWithin(bytes('"\\\\"[[[['), 3)).toBe(false);
  });

  it('parses objects within the bound and names why others are refused', () => {
    expect(parseBoundedObject(bytes('{"a":[1]}'), 2)).toEqual({ a: [1] });
    expect(parseBoundedObject(bytes('[1]'), 2)).toBe('invalid');
    expect(parseBoundedObject(bytes('{"a":[[1]]}'), 2)).toBe('too-deep');
    expect(parseBoundedObject(new Uint8Array([0x7b, 0xff, 0x7d]), 2)).toBe('invalid');
  });
});
