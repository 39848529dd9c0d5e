/**
 * A minimal protobuf reader over a Buffer for the generated fast decoders. It accepts only what
 * the one-pass encoders write; anything else throws Unsupported, and the decoder falls back to
 * ts-proto for the whole message.
 */

/** Thrown for input the fast decoders leave to ts-proto. */
export class Unsupported extends Error {}

const UNSUPPORTED = new Unsupported('left to ts-proto');

export class ProtoReader {
  pos: number;

  constructor(
    readonly buf: Buffer,
    start = 0,
    readonly end = buf.length,
  ) {
    this.pos = start;
  }

  /** A varint of at most 7 bytes (< 2^49): ids, prices, versions, lengths, tags, seconds. */
  uint(): number {
    const { buf } = this;
    let value = 0;
    let scale = 1;
    for (let i = 0; i < 7; i++) {
      if (this.pos >= this.end) throw UNSUPPORTED;
      const byte = buf[this.pos++]!;
      value += (byte & 127) * scale;
      if (byte < 128) return value;
      scale *= 128;
    }
    // Longer varints are negative or beyond the service's values: ts-proto decides.
    throw UNSUPPORTED;
  }

  /** A length-delimited field's bounds; the reader moves past it. */
  delimited(): { start: number; end: number } {
    const length = this.uint();
    const start = this.pos;
    const end = start + length;
    if (end > this.end) throw UNSUPPORTED;
    this.pos = end;
    return { start, end };
  }

  string(): string {
    const { start, end } = this.delimited();
    return start === end ? '' : this.buf.toString('utf8', start, end);
  }

  /** A reader over an embedded message's bytes; this reader moves past them. */
  nested(): ProtoReader {
    const { start, end } = this.delimited();
    return new ProtoReader(this.buf, start, end);
  }
}

/** Rejects a tag the fast decoders do not expect. */
export function unsupported(): never {
  throw UNSUPPORTED;
}
