import { describe, expect, it } from 'vitest';
import { parseEnvelope } from './parse-envelope.js';
import { serializeEnvelope } from './serialize-envelope.js';

const enc = new TextEncoder();
const bytes = (text: string) => enc.encode(text);
const text = (data: Uint8Array) => new TextDecoder().decode(data);

function parsed(input: Uint8Array) {
  const result = parseEnvelope(input);
  if (!result.ok) throw new Error(`unexpected failure: ${result.error.message}`);
  return result.envelope;
}

// Cases from the envelope spec and reference section 1.8.
describe('parseEnvelope: valid envelopes', () => {
  it('parses the spec 2-item example with explicit and implicit lengths', () => {
    const input = bytes(
      '{"event_id":"9ec79c33ec9942ab8353589fcb2e04dc","dsn":"https://e12d836b15bb49d7bbf99e64295d995b:@sentry.io/42"}\n' +
        '{"type":"attachment","length":10,"content_type":"text/plain","filename":"hello.txt"}\n' +
        '\ufeffHello\r\n\n' +
        '{"type":"event","length":41,"content_type":"application/json","filename":"application.log"}\n' +
        '{"message":"hello world","level":"error"}\n',
    );
    const envelope = parsed(input);
    expect(envelope.items.map((item) => item.type)).toEqual(['attachment', 'event']);
    expect(envelope.items[0]?.payload.length).toBe(10);
    expect(text(envelope.items[1]!.payload)).toBe('{"message":"hello world","level":"error"}');
  });

  it('keeps a binary attachment whose bytes include CRLF and a trailing newline', () => {
    const payload = new Uint8Array([0xef, 0xbb, 0xbf, 0x48, 0x0d, 0x0a, 0x00, 0xff, 0x0a, 0x0a]);
    const head = bytes('{}\n{"type":"attachment","length":10}\n');
    const input = new Uint8Array([...head, ...payload, 0x0a]);
    expect([...parsed(input).items[0]!.payload]).toEqual([...payload]);
  });

  it('parses two empty attachments (length 0), which the SDK parser rejects', () => {
    const input = bytes(
      '{"event_id":"9ec79c33ec9942ab8353589fcb2e04dc"}\n{"type":"attachment","length":0}\n\n{"type":"attachment","length":0}\n\n',
    );
    const envelope = parsed(input);
    expect(envelope.items).toHaveLength(2);
    expect(envelope.items.every((item) => item.payload.length === 0)).toBe(true);
  });

  it('parses an implicit-length non-JSON payload', () => {
    const envelope = parsed(bytes('{}\n{"type":"attachment"}\nhelloworld\n'));
    expect(text(envelope.items[0]!.payload)).toBe('helloworld');
  });

  it('keeps a \\r before the newline as part of an implicit-length payload', () => {
    const envelope = parsed(bytes('{}\n{"type":"attachment"}\nhello\r\n'));
    expect(text(envelope.items[0]!.payload)).toBe('hello\r');
  });

  it.each(['{}', '{}\n', '{"dsn":"https://k@h/1"}'])('accepts a header-only envelope %j', (raw) => {
    expect(parsed(bytes(raw)).items).toEqual([]);
  });

  it('accepts a missing trailing newline', () => {
    expect(parsed(bytes('{}\n{"type":"event"}\n{"a":1}')).items).toHaveLength(1);
  });

  it('keeps unknown item types and unknown header attributes byte for byte', () => {
    const input = bytes('{"x-future":[1,2]}\n{"type":"hologram","weird":true}\n{"z":1}');
    const envelope = parsed(input);
    expect(envelope.items[0]?.type).toBe('hologram');
    expect(text(serializeEnvelope(envelope))).toBe(text(input));
  });
});

describe('parseEnvelope: malformed envelopes', () => {
  it.each([
    ['', 'empty'],
    ['not valid envelope data{{{', 'header-not-json'],
    ['[]\n', 'header-not-json'],
    ['{}\nnot json\n', 'item-header-not-json'],
    ['{}\n{"length":2}\nab', 'item-type-missing'],
    ['{}\n{"type":"attachment","length":-1}\n', 'bad-length'],
    ['{}\n{"type":"attachment","length":"3"}\nabc', 'bad-length'],
    ['{}\n{"type":"attachment","length":20}\nshort', 'truncated-payload'],
    ['{}\n{"type":"attachment","length":3}\nabcX', 'missing-newline'],
    ['{}\n{"type":"event"}\n{}\n\n', 'item-header-not-json'],
  ])('%j → %s', (raw, code) => {
    expect(parseEnvelope(bytes(raw))).toMatchObject({ ok: false, error: { code } });
  });

  it('bounds the number of items', () => {
    const raw = '{}\n' + '{"type":"session"}\n{}\n'.repeat(5);
    const result = parseEnvelope(bytes(raw), { maxItems: 3 });
    expect(result.ok ? 'ok' : result.error.code).toBe('too-many-items');
  });
});

// A small seeded generator (mulberry32) keeps the fuzz run deterministic and reproducible.
function mulberry32(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Property: the parser is total; what parses re-serialises to an equal parse. */
function checkTotal(input: Uint8Array): string | null {
  const result = parseEnvelope(input);
  if (!result.ok) {
    const { message, offset } = result.error;
    return message.length > 0 && offset >= 0 && offset <= input.length
      ? null
      : `bad error ${message}`;
  }
  const again = parseEnvelope(serializeEnvelope(result.envelope));
  if (!again.ok) return `re-serialised envelope does not parse: ${again.error.message}`;
  return again.envelope.items.length === result.envelope.items.length ? null : 'item count changed';
}

describe('parseEnvelope: round trip and fuzz', () => {
  const sample = new Uint8Array([
    ...bytes(
      '{"event_id":"abc","sent_at":"2026-01-01T00:00:00Z"}\n{"type":"event"}\n{"message":"m"}\n',
    ),
    ...bytes('{"type":"attachment","length":6}\n'),
    0,
    10,
    13,
    10,
    255,
    10,
    ...bytes('\n{"type":"client_report"}\n{"discarded_events":[]}'),
  ]);

  it('serialises a parsed envelope back to the same bytes', () => {
    expect([...serializeEnvelope(parsed(sample))]).toEqual([...sample]);
  });

  it('never throws and either parses or names a problem, for 5000 mutated inputs', () => {
    const random = mulberry32(0x5eed);
    const failures: string[] = [];
    const alphabet = [0x0a, 0x0d, 0x7b, 0x7d, 0x22, 0x3a, 0x30, 0x35, 0x00, 0xff];
    for (let round = 0; round < 5000; round += 1) {
      const input = sample.slice(0, Math.floor(random() * (sample.length + 1)));
      const mutations = Math.floor(random() * 4);
      for (let m = 0; m < mutations && input.length > 0; m += 1) {
        input[Math.floor(random() * input.length)] =
          alphabet[Math.floor(random() * alphabet.length)]!;
      }
      const problem = checkTotal(input);
      if (problem) failures.push(`round ${round}: ${problem}`);
    }
    expect(failures).toEqual([]);
  });
});
