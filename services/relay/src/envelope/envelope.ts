/**
 * Envelope value types. Header lines keep their original bytes so an untouched envelope is
 * forwarded byte-for-byte (unknown header attributes and item types included).
 */

/** A JSON object as found in envelope and item header lines. */
export type JsonObject = Record<string, unknown>;

/** One item: its parsed header, the header's original bytes and the raw payload bytes. */
export interface EnvelopeItem {
  readonly type: string;
  readonly header: JsonObject;
  readonly headerBytes: Uint8Array;
  readonly payload: Uint8Array;
}

/** A parsed envelope: header line plus zero or more items. */
export interface Envelope {
  readonly header: JsonObject;
  readonly headerBytes: Uint8Array;
  readonly items: readonly EnvelopeItem[];
}

/** Why a body is not a valid envelope; `offset` is the byte where the problem starts. */
export interface EnvelopeError {
  readonly code:
    | 'empty'
    | 'header-not-json'
    | 'item-header-not-json'
    | 'item-type-missing'
    | 'bad-length'
    | 'truncated-payload'
    | 'missing-newline'
    | 'too-many-items'
    | 'header-too-large'
    | 'item-too-large'
    | 'envelope-too-large';
  readonly message: string;
  readonly offset: number;
}

/** Result of parsing: the parser never throws. */
export type ParseResult =
  | { readonly ok: true; readonly envelope: Envelope }
  | { readonly ok: false; readonly error: EnvelopeError };
