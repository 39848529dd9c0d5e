// Conformance tables from the reference, section 6.2 (Relay's relay-filter tests).
import { describe, expect, it } from 'vitest';
import { viewOfEvent } from '../envelope/filterable-item.js';
import { localhostFilter } from './localhost.js';
import { configWith } from './test-support.js';

const at = (url: string) => viewOfEvent({ request: { url } });

describe('localhost', () => {
  const config = configWith(['localhost']);
  it.each(['127.0.0.1', '::1'])('drops user ip %s', (ip) => {
    expect(localhostFilter.matches(viewOfEvent({ user: { ip_address: ip } }), config)).toBe(true);
  });
  it.each(['133.12.12.1', '2001:db8:0:0:0:ff00:42:8329'])('keeps user ip %s', (ip) => {
    expect(localhostFilter.matches(viewOfEvent({ user: { ip_address: ip } }), config)).toBe(false);
  });
  it.each(['127.0.0.1', 'localhost', 'foo.localhost', 'foo.bar.baz.localhost'])(
    'drops domain %s',
    (domain) => {
      expect(localhostFilter.matches(at(`http://${domain}:8080/`), config)).toBe(true);
    },
  );
  it.each([
    'my.dom.com',
    '123.123.123.44',
    'localhost.com',
    'foolocalhost',
    'localhostbar',
    'alocalhostgoesintoabar',
  ])('keeps domain %s', (domain) => {
    expect(localhostFilter.matches(at(`http://${domain}:8080/`), config)).toBe(false);
  });
  it('drops file URLs, keeps web URLs', () => {
    expect(
      localhostFilter.matches(
        at('file:///Users/Maisey/work/squirrelchasers/src/leaderboard.html'),
        config,
      ),
    ).toBe(true);
    expect(localhostFilter.matches(at('http://www.squirrelchasers.com/leaderboard'), config)).toBe(
      false,
    );
  });
  it.each([
    ['host', 'localhost:3000', true],
    ['x-forwarded-host', '127.0.0.1:3000', true],
    ['host', 'localhost.sentry.io:3000', false],
    ['x-forwarded-for', '127.0.0.1', true],
    ['x-forwarded-for', '::1', true],
  ])('header %s: %s → %s', (name, value, dropped) => {
    expect(
      localhostFilter.matches(viewOfEvent({ request: { headers: { [name]: value } } }), config),
    ).toBe(dropped);
  });
  it('keeps an empty event', () => {
    expect(localhostFilter.matches(viewOfEvent({}), config)).toBe(false);
  });
});
