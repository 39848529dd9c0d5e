import { describe, expect, it } from 'vitest';
import { parseEnvelope } from '../envelope/parse-envelope.js';
import { createEnvelope, createItem, serializeEnvelope } from '../envelope/serialize-envelope.js';
import type { DropReason } from '../outcomes/drop-reason.js';
import type { OutcomeSink } from '../outcomes/outcome-sink.js';
import { recordAllDropped, removeRateLimited } from './envelope-drops.js';

const encoder = new TextEncoder();
const DSN = '3:keya';

function recorder() {
  const records: Array<[string, DropReason, string, number]> = [];
  const sink: OutcomeSink = { record: (...args) => void records.push(args) };
  return { sink, records };
}

const envelope = (...items: Array<[type: string, header?: Record<string, unknown>]>) =>
  serializeEnvelope(
    createEnvelope(
      { event_id: 'e1' },
      items.map(([type, header]) =>
        createItem({ type, ...header }, encoder.encode(`{"${type}":1}`)),
      ),
    ),
  );
const typesOf = (body: Uint8Array) => {
  const parsed = parseEnvelope(body);
  if (!parsed.ok) throw new Error('did not parse');
  return parsed.envelope.items.map((item) => item.type);
};

describe('recordAllDropped', () => {
  it('records every item by category and quantity', () => {
    const { sink, records } = recorder();
    recordAllDropped(sink, DSN, envelope(['event'], ['log', { item_count: 7 }]), 'spool-expired');
    expect(records).toEqual([
      [DSN, 'spool-expired', 'error', 1],
      [DSN, 'spool-expired', 'log_item', 7],
    ]);
  });

  it('records nothing for a body that does not parse', () => {
    const { sink, records } = recorder();
    recordAllDropped(sink, DSN, encoder.encode('not json\n'), 'upstream-rejected');
    expect(records).toEqual([]);
  });
});

describe('removeRateLimited', () => {
  const now = 1_000;

  it('hands back the same bytes when no limit is active', () => {
    const { sink, records } = recorder();
    const body = envelope(['event']);
    expect(removeRateLimited(sink, DSN, {}, body, now)).toBe(body);
    expect(removeRateLimited(sink, DSN, { error: now - 1 }, body, now)).toBe(body);
    expect(records).toEqual([]);
  });

  it('removes only the limited items and records them as rate-limited', () => {
    const { sink, records } = recorder();
    const body = envelope(['event'], ['span', { item_count: 3 }], ['attachment']);
    const kept = removeRateLimited(sink, DSN, { span: now + 1 }, body, now);
    expect(kept).not.toBeNull();
    expect(typesOf(kept!)).toEqual(['event', 'attachment']);
    expect(records).toEqual([[DSN, 'rate-limited', 'span', 3]]);
  });

  it('answers null when every item is limited', () => {
    const { sink, records } = recorder();
    const body = envelope(['event'], ['transaction']);
    expect(removeRateLimited(sink, DSN, { all: now + 1 }, body, now)).toBeNull();
    expect(records.map(([, , category]) => category)).toEqual(['error', 'transaction']);
  });

  it('lets client reports through unless everything is limited', () => {
    const { sink } = recorder();
    const body = envelope(['client_report']);
    expect(removeRateLimited(sink, DSN, { internal: now + 1, error: now + 1 }, body, now)).toBe(
      body,
    );
  });
});
