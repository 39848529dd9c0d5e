import { describe, expect, it } from 'vitest';
import { loadRelayConfig } from '../config.js';
import { parseEnvelope } from '../envelope/parse-envelope.js';
import { createItemAdmission, itemBudgetsFrom, itemByteLimit } from './item-budgets.js';

const budgets = itemBudgetsFrom(loadRelayConfig({}));
const KIB = 1024;
const MIB = 1024 * KIB;

function check(text: string) {
  const result = parseEnvelope(new TextEncoder().encode(text), {}, createItemAdmission(budgets));
  return result.ok ? null : result.error.message;
}

describe('item budgets (relay defaults)', () => {
  it.each([
    ['event', MIB],
    ['transaction', MIB],
    ['client_report', 4 * KIB],
    ['check_in', 100 * KIB],
    ['profile', 20 * MIB],
    ['replay_recording', 10 * MIB],
    ['span', 2 * MIB],
    ['log', 2 * MIB],
    ['session', MIB],
    ['hologram', MIB],
  ])('gives %s items %i bytes', (type, limit) => {
    expect(itemByteLimit(type, budgets)).toBe(limit);
  });

  it.each([
    [`{}\n{"type":"client_report"}\n${'x'.repeat(5000)}`, /client_report\) is over the 4096-byte/],
    [
      `{}\n${'{"type":"session"}\n{}\n'.repeat(101)}`,
      /item 100 \(session\): more than 100 sessions/,
    ],
    [`{}\n{"type":"check_in"}\n${'x'.repeat(102_401)}`, /check_in/],
    [`{}\n{"type":"hologram","length":${MIB + 1}}\n`, /hologram\) declares 1048577 bytes/],
  ])('refuses %#', (raw, message) => {
    expect(check(raw)).toMatch(message);
  });

  it('bounds a span container by its bytes, whatever item_count it claims', () => {
    const payload = `{"version":2,"items":[${'{},'.repeat(MIB)}{}]}`;
    const header = '{"type":"span","item_count":1000000}';
    expect(check(`{}\n${header}\n${payload}`)).toMatch(/span\) is over the 2097152-byte/);
  });

  it('counts all attachments of an envelope against one budget', () => {
    const attachment = `{"type":"attachment","length":${12 * MIB}}\n${'a'.repeat(12 * MIB)}\n`;
    expect(check(`{}\n${attachment}`)).toBeNull();
    expect(check(`{}\n${attachment}${attachment}`)).toMatch(
      /item 1 \(attachment\) declares 12582912 bytes, over the 20971520-byte limit for all attachments together/,
    );
  });

  it('accepts envelopes within budget', () => {
    expect(check('{}\n{"type":"event"}\n{}')).toBeNull();
  });
});
