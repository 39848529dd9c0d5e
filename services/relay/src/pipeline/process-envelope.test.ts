import { describe, expect, it } from 'vitest';
import { parseEnvelope } from '../envelope/parse-envelope.js';
import { serializeEnvelope } from '../envelope/serialize-envelope.js';
import { FILTERS } from '../filters/registry.js';
import { configWith } from '../filters/test-support.js';
import { SPEC_EVENT_LIMITS } from '../limits/event-limits.js';
import { processEnvelope, type ProcessOptions } from './process-envelope.js';

const span = (id: string, segment: string, name: string, isSegment: boolean) => ({
  span_id: id,
  name,
  is_segment: isSegment,
  attributes: { 'sentry.segment.id': { type: 'string', value: segment } },
});

const options: ProcessOptions = {
  filters: FILTERS,
  filterConfig: configWith(['script-error', 'not-found-transaction']),
  eventLimits: SPEC_EVENT_LIMITS,
  scrubPii: false,
  maxJsonDepth: 128,
};
const envelopeOf = (text: string) => {
  const result = parseEnvelope(new TextEncoder().encode(text));
  if (!result.ok) throw new Error(result.error.message);
  return result.envelope;
};
const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

describe('processEnvelope', () => {
  it('drops a filtered event together with its attachment, even when the attachment comes first', () => {
    const envelope = envelopeOf(
      '{}\n{"type":"attachment","length":2}\nab\n{"type":"event"}\n{"message":"Script error."}\n{"type":"session"}\n{}',
    );
    const result = processEnvelope(envelope, {}, 0, {}, options);
    expect(result.envelope?.items.map((item) => item.type)).toEqual(['session']);
    expect(result.drops).toEqual([
      { reason: 'filtered:script-error', category: 'error', quantity: 1 },
      { reason: 'filtered:script-error', category: 'attachment', quantity: 1 },
    ]);
  });

  it('drops rate-limited categories and says when everything was limited', () => {
    const envelope = envelopeOf(
      '{}\n{"type":"event"}\n{"message":"a"}\n{"type":"attachment","length":1}\nx',
    );
    const partly = processEnvelope(envelope, { attachment: 10 }, 0, {}, options);
    expect(partly.envelope?.items.map((item) => item.type)).toEqual(['event']);
    expect(partly.fullyRateLimited).toBe(false);
    const fully = processEnvelope(envelope, { all: 10 }, 0, {}, options);
    expect(fully.envelope).toBeNull();
    expect(fully.fullyRateLimited).toBe(true);
    expect(processEnvelope(envelope, { all: 10 }, 11, {}, options).changed).toBe(false);
  });

  it('keeps untouched items as the same bytes and rewrites only what changed', () => {
    const raw = `{"event_id":"e"}\n{"type":"event","x-extra":1}\n{"message":"${'y'.repeat(300)}"}\n{"type":"unknown_thing"}\nraw bytes`;
    const result = processEnvelope(envelopeOf(raw), {}, 0, {}, options);
    const out = text(serializeEnvelope(result.envelope!));
    expect(out).toContain('{"type":"event","x-extra":1}');
    expect(out).toContain(`"message":"${'y'.repeat(250)}..."`);
    expect(out.endsWith('{"type":"unknown_thing"}\nraw bytes')).toBe(true);
    expect(result.decisions.map((d) => d.action)).toEqual(['modify', 'forward']);
  });

  it('drops a filtered segment with its spans and rewrites item_count', () => {
    const container = {
      version: 2,
      items: [
        span('a1', 'a1', 'GET /404', true),
        span('a2', 'a1', 'db', false),
        span('b1', 'b1', 'GET /items', true),
      ],
    };
    const raw = `{}\n{"type":"span","item_count":3,"content_type":"application/vnd.sentry.items.span.v2+json"}\n${JSON.stringify(container)}`;
    const result = processEnvelope(envelopeOf(raw), {}, 0, {}, options);
    const item = result.envelope!.items[0]!;
    expect(item.header.item_count).toBe(1);
    expect(JSON.parse(text(item.payload)).items.map((s: { span_id: string }) => s.span_id)).toEqual(
      ['b1'],
    );
    expect(result.drops).toEqual([
      { reason: 'filtered:not-found-transaction', category: 'span', quantity: 2 },
    ]);
  });

  it('drops an event whose payload is not JSON as invalid-item', () => {
    const result = processEnvelope(
      envelopeOf('{}\n{"type":"event"}\nnot json'),
      {},
      0,
      {},
      options,
    );
    expect(result.drops).toEqual([{ reason: 'invalid-item', category: 'error', quantity: 1 }]);
  });
});
