import { describe, expect, it } from 'vitest';
import { parseEnvelope } from '../envelope/parse-envelope.js';
import { clientReportEnvelope, createClientReportAggregator } from './client-reports.js';

const decoder = new TextDecoder();

describe('createClientReportAggregator', () => {
  it('sums drops per DSN into the list of their reported outcome, then starts afresh', () => {
    const aggregator = createClientReportAggregator();
    aggregator.record('1:a', 'rate-limited', 'error', 2);
    aggregator.record('1:a', 'rate-limited', 'error', 3);
    aggregator.record('1:a', 'spool-expired', 'span', 4);
    aggregator.record('2:b', 'filtered:localhost', 'error', 1);
    aggregator.record('2:b', 'rate-limited', 'internal', 9); // client reports are never reported
    const drained = aggregator.drain(1_700);
    expect(drained.get('1:a')).toEqual([
      {
        timestamp: 1_700,
        rate_limited_events: [{ reason: 'ratelimit_backoff', category: 'error', quantity: 5 }],
        discarded_events: [{ reason: 'queue_overflow', category: 'span', quantity: 4 }],
      },
    ]);
    expect(drained.get('2:b')).toEqual([
      {
        timestamp: 1_700,
        filtered_events: [{ reason: 'localhost', category: 'error', quantity: 1 }],
      },
    ]);
    expect(aggregator.drain(1_800).size).toBe(0);
  });
});

describe('clientReportEnvelope', () => {
  it('carries each payload as a client_report item under the DSN and send time', () => {
    const payloads = [
      {
        timestamp: 1,
        discarded_events: [{ reason: 'send_error', category: 'error', quantity: 1 }],
      },
      { timestamp: 1, filtered_events: [{ reason: 'localhost', category: 'span', quantity: 2 }] },
    ];
    const bytes = clientReportEnvelope('https://key@example.com/3', payloads, Date.UTC(2030, 0, 2));
    const parsed = parseEnvelope(bytes);
    if (!parsed.ok) throw new Error(parsed.error.message);
    expect(parsed.envelope.header).toEqual({
      dsn: 'https://key@example.com/3',
      sent_at: '2030-01-02T00:00:00.000Z',
    });
    expect(parsed.envelope.items.map((item) => item.type)).toEqual([
      'client_report',
      'client_report',
    ]);
    expect(parsed.envelope.items.map((item) => JSON.parse(decoder.decode(item.payload)))).toEqual(
      payloads,
    );
  });
});
