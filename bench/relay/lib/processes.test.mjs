import { describe, expect, it } from 'vitest';
import { ENVELOPE_POST, fixture, nextFixture } from './processes.mjs';

const headerOf = (body) => JSON.parse(body.subarray(0, body.indexOf(10)).toString());

describe('the envelope the relay benches post', () => {
  it('is the fixture with a new 32-digit event id each time, everything else unchanged', () => {
    const [first, second] = [nextFixture(), nextFixture()];
    const ids = [first, second].map((body) => headerOf(body).event_id);
    expect(ids[0]).toMatch(/^[0-9a-f]{32}$/);
    expect(ids[1]).not.toBe(ids[0]);
    const withoutId = (body) => body.toString().replace(/"event_id":"[0-9a-f]{32}"/, '');
    expect(withoutId(first)).toBe(withoutId(fixture));
    expect(first.length).toBe(fixture.length);
  });

  it('gets a new event id on every request autocannon builds', () => {
    const [setup] = ENVELOPE_POST.requests;
    const ids = [0, 1, 2].map(() => headerOf(setup.setupRequest({ ...ENVELOPE_POST }).body));
    expect(new Set(ids.map((header) => header.event_id)).size).toBe(3);
  });
});
