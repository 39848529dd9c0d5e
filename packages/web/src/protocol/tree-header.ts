/**
 * The `Strata-Tree` header: the segment keys the browser currently shows, root first, e.g.
 * `1;shop/bench/item(p.id=42)`. A key is a segment id plus the params and search values its
 * loader read; the browser echoes keys it got from the server and never builds them itself.
 * The parser is strict and total: anything unexpected is an error value, never an exception.
 */
import { PROTOCOL_VERSION, TREE_LIMITS } from './constants.js';

/** Why a tree header was refused; `tooLarge` maps to 431, the rest to 400. */
export type TreeHeaderError =
  { kind: 'tooLarge'; message: string } | { kind: 'malformed'; message: string };

// The grammar of docs/protocol.md: id [ "(" part *( "&" part ) ")" ], part = ("p."|"s.") name
// "=" value, names and values percent-encoded (unreserved characters and %XX only).
const ENCODED = '(?:[A-Za-z0-9._~-]|%[0-9A-Fa-f]{2})*';
const PART = `[ps]\\.${ENCODED}=${ENCODED}`;
const KEY = new RegExp(`^[a-z0-9][a-z0-9._-]{0,63}(?:\\(${PART}(?:&${PART})*\\))?$`);
const MAX_KEY_LENGTH = 64 + 1024 + 2;

/** Encodes segment keys as a header value. */
export function encodeTreeHeader(keys: readonly string[]): string {
  return `${PROTOCOL_VERSION};${keys.join('/')}`;
}

/** Parses a header value into segment keys. */
export function parseTreeHeader(
  value: string,
): { ok: true; keys: string[] } | { ok: false; error: TreeHeaderError } {
  if (value.length > TREE_LIMITS.maxLength)
    return {
      ok: false,
      error: {
        kind: 'tooLarge',
        message: `Strata-Tree is longer than ${TREE_LIMITS.maxLength} characters`,
      },
    };
  const separator = value.indexOf(';');
  if (separator < 0) return malformed('Strata-Tree must start with "<version>;"');
  const version = value.slice(0, separator);
  if (version !== String(PROTOCOL_VERSION))
    return malformed(`Strata-Tree version "${version.slice(0, 16)}" is not supported`);
  const body = value.slice(separator + 1);
  if (body === '') return { ok: true, keys: [] };
  const keys = body.split('/');
  if (keys.length > TREE_LIMITS.maxSegments)
    return {
      ok: false,
      error: {
        kind: 'tooLarge',
        message: `Strata-Tree has more than ${TREE_LIMITS.maxSegments} segments`,
      },
    };
  for (const [index, key] of keys.entries())
    if (key.length > MAX_KEY_LENGTH || !KEY.test(key))
      return malformed(`Strata-Tree segment ${index + 1} is not a valid segment key`);
  return { ok: true, keys };
}

function malformed(message: string): { ok: false; error: TreeHeaderError } {
  return { ok: false, error: { kind: 'malformed', message } };
}

/** Builds a segment key from its id and the params and search values its loader read. */
export function segmentKey(
  id: string,
  read: { params: Readonly<Record<string, string>>; search: Readonly<Record<string, string>> },
): string {
  const parts = [
    ...Object.keys(read.params)
      .sort()
      .map((name) => `p.${encodeKeyPart(name)}=${encodeKeyPart(read.params[name] ?? '')}`),
    ...Object.keys(read.search)
      .sort()
      .map((name) => `s.${encodeKeyPart(name)}=${encodeKeyPart(read.search[name] ?? '')}`),
  ];
  return parts.length === 0 ? id : `${id}(${parts.join('&')})`;
}

// encodeURIComponent leaves ()!*' alone; the key grammar only allows unreserved characters.
function encodeKeyPart(text: string): string {
  return encodeURIComponent(text).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

/** The names a key lists: `item(p.id=42&s.q=x)` → id item, params [id], search [q]; null if malformed. */
export function readKeyNames(
  key: string,
): { id: string; params: string[]; search: string[] } | null {
  const open = key.indexOf('(');
  if (open < 0) return { id: key, params: [], search: [] };
  if (!key.endsWith(')')) return null;
  const params: string[] = [];
  const search: string[] = [];
  for (const pair of key.slice(open + 1, -1).split('&')) {
    const name = pair.split('=')[0] ?? '';
    let decoded: string;
    try {
      decoded = decodeURIComponent(name.slice(2));
    } catch {
      return null;
    }
    if (name.startsWith('p.')) params.push(decoded);
    else if (name.startsWith('s.')) search.push(decoded);
    else return null;
  }
  return { id: key.slice(0, open), params, search };
}
