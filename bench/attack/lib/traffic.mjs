// The requests of the attack bench: honest SDK envelopes and one builder per hostile class. Pure:
// each builder answers { headers, body } (or, for the trickle class, what to send slowly).
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';

const MIB = 1024 * 1024;
const fixtureUrl = new URL(
  '../../../services/relay/test/fixtures/sdk/browser-03-event.envelope',
  import.meta.url,
);
// A real @sentry/browser error envelope; its DSN and event id are replaced per request.
const fixture = readFileSync(fixtureUrl, 'utf8');
const fixtureHeader = JSON.parse(fixture.slice(0, fixture.indexOf('\n')));

/** The two projects the relay accepts: the site's (honest clients and attackers both know its
 * public DSN, it is in every page) and a second one that floods. */
export const projects = (host) => ({
  site: `http://site0public0key@${host}/1`,
  flood: `http://flood0public0key@${host}/2`,
});

const text = { 'content-type': 'text/plain;charset=UTF-8' };
const gzipped = { ...text, 'content-encoding': 'gzip' };
const header = (fields) => JSON.stringify(fields);

/** A fresh 32-hex event id. */
export const eventId = () => randomBytes(16).toString('hex');

/** An honest SDK error envelope for `dsn` with its own event id. */
export function honestEnvelope(dsn, id) {
  const body = fixture.replaceAll(fixtureHeader.event_id, id).replace(fixtureHeader.dsn, dsn);
  return { headers: text, body: Buffer.from(body) };
}

const eightMiBOfKeys = Buffer.alloc(8 * MIB, 'k');

/** `make(dsn)` built once per DSN: compressing the bombs costs the sender more than the relay. */
function once(make) {
  const built = new Map();
  return (dsn) => {
    if (!built.has(dsn)) built.set(dsn, make(dsn));
    return built.get(dsn);
  };
}

/**
 * The hostile classes. Each entry: how many requests per second at scale 1, and a builder.
 * `dsn` is the site's DSN (attackers read it from any page).
 */
export const HOSTILE_CLASSES = {
  // An 8 MiB DSN string that no project has (unique, so no cache can answer it). Sent as three
  // chunks so the sender does not copy 8 MiB per request.
  'huge-dsn': {
    rate: 4,
    build: () => ({
      headers: text,
      body: [Buffer.from('{"dsn":"http://'), eightMiBOfKeys, Buffer.from(`${eventId()}@x/1"}\n`)],
    }),
  },
  // Many small, distinct, invalid DSNs: a lookup cache keyed by them would grow.
  'distinct-dsns': {
    rate: 40,
    build: () => ({
      headers: text,
      body: Buffer.from(`${header({ dsn: `http://${eventId()}@evil.example/9` })}\n{}\n`),
    }),
  },
  // ~10 KB of gzip that inflates to an 8 MiB envelope header of nested arrays.
  'header-bomb': {
    rate: 20,
    build: once((dsn) => ({
      headers: gzipped,
      body: gzipSync(
        `{"dsn":${JSON.stringify(dsn)},"x":${'['.repeat(4 * MIB)}${']'.repeat(4 * MIB)}}\n`,
      ),
    })),
  },
  // An item of an unknown type inflating to 90 MiB.
  'unknown-item-bomb': {
    rate: 4,
    build: once((dsn) => ({
      headers: gzipped,
      body: gzipSync(
        Buffer.concat([
          Buffer.from(`${header({ dsn, event_id: eventId() })}\n${header({ type: 'strata_x' })}\n`),
          Buffer.alloc(90 * MIB, 0x30),
          Buffer.from('\n'),
        ]),
      ),
    })),
  },
  // A 3 MiB span container that claims a million spans.
  'span-count-lie': {
    rate: 10,
    build: once((dsn) => {
      const span = `{"trace_id":"${'a'.repeat(32)}","span_id":"${'b'.repeat(16)}","name":"${'n'.repeat(3 * MIB)}"}`;
      const items = `{"version":2,"items":[${span}]}`;
      return {
        headers: text,
        body: Buffer.from(
          `${header({ dsn })}\n${header({ type: 'span', item_count: 1_000_000, content_type: 'application/vnd.sentry.items.span.v2+json', length: Buffer.byteLength(items) })}\n${items}\n`,
        ),
      };
    }),
  },
  // Not an envelope at all.
  malformed: {
    rate: 60,
    build: () => ({ headers: text, body: randomBytes(2048) }),
  },
  // Valid small envelopes for the second project, as fast as the class's rate allows.
  flood: {
    rate: 180,
    build: (_dsn, flood) => honestEnvelope(flood, eventId()),
  },
};

/** Bodies that trickle: a declared length, sent one byte per `intervalMs`. */
export const TRICKLE = { connections: 40, declaredBytes: 64 * 1024, intervalMs: 1000 };

/** The honest clients' rate: a tenth of the requests. */
export const honestRate = (scale) =>
  (Object.values(HOSTILE_CLASSES).reduce((sum, c) => sum + c.rate, 0) * scale) / 9;
