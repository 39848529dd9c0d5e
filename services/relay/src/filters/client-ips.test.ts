// Conformance tables from the reference, section 6.2 (Relay's relay-filter tests).
import { describe, expect, it } from 'vitest';
import { viewOfEvent } from '../envelope/filterable-item.js';
import { clientIpsFilter } from './client-ips.js';
import { ipMatches } from './ip-address.js';
import { configWith } from './test-support.js';

describe('ip-address', () => {
  it.each([
    ['1.2.3.4', [], false],
    ['122.33.230.14', ['122.33.230.14'], true],
    ['aaaa:bbbb::cccc', ['aaaa:bbbb::cccc'], true],
    ['aaaa:bbbb::ccce', ['aaaa:bbbb::cccc'], false],
    ['122.33.230.1', ['122.33.230.0/30'], true],
    ['122.33.230.2', ['122.33.230.0/30'], true],
    ['122.33.230.4', ['122.33.230.0/30'], false],
    ['122.33.230.5', ['122.33.230.4/30'], true],
    ['a:b:c::1', ['a:b:c::0/126'], true],
    ['a:b:c::2', ['a:b:c::0/126'], true],
    ['a:b:c::4', ['a:b:c::0/126'], false],
    ['a:b:c::5', ['a:b:c::4/126'], true],
    ['127.0.0.1', ['127.0.0.0/8'], true],
    ['127.0.0.1', ['0.0.0.0', '192.168.1.1', '10.0.0.0/8'], false],
    ['127.0.0.1', ['lol/bar'], false],
  ])('client ip %s in %j → %s', (ip, entries, dropped) => {
    expect(entries.some((entry) => ipMatches(ip, entry))).toBe(dropped);
    const config = configWith(['ip-address'], { clientIps: entries });
    const item = viewOfEvent({}, { clientIp: ip });
    expect(clientIpsFilter.isEnabled(config) && clientIpsFilter.matches(item, config)).toBe(
      dropped,
    );
  });
});
