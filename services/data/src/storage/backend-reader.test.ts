import { describe, expect, it } from 'vitest';
import { readBackendResult } from './backend-reader.js';

/** One backend message: type byte, int32 length (itself included), body. */
function message(type: string, body: Buffer): Buffer {
  const head = Buffer.alloc(5);
  head.write(type, 0, 'latin1');
  head.writeInt32BE(body.length + 4, 1);
  return Buffer.concat([head, body]);
}

const int16 = (n: number) => Buffer.from([n >> 8, n & 0xff]);
const int32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeInt32BE(n);
  return b;
};
/** RowDescription of one text column named `name`. */
const oneTextColumn = (name: string) =>
  message(
    'T',
    Buffer.concat([
      int16(1),
      Buffer.from(`${name}\0`),
      int32(0),
      int16(0),
      int32(25),
      int16(-1),
      int32(-1),
      int16(0),
    ]),
  );
const dataRow = (...cells: (string | null)[]) =>
  message(
    'D',
    Buffer.concat([
      int16(cells.length),
      ...cells.map((cell) =>
        cell === null
          ? int32(-1)
          : Buffer.concat([int32(Buffer.byteLength(cell)), Buffer.from(cell)]),
      ),
    ]),
  );
const ready = message('Z', Buffer.from('I'));

// The read path's parser on hand-built replies; pglite-read-path.test.ts checks it against
// PGlite's own results on real ones.
describe('readBackendResult', () => {
  it('reads rows by their description, NULL as null', () => {
    const reply = Buffer.concat([oneTextColumn('name'), dataRow('ä'), dataRow(null), ready]);
    expect(readBackendResult(reply)).toEqual({ rows: [{ name: 'ä' }, { name: null }] });
  });

  it('refuses a reply cut inside a message or its header', () => {
    const reply = Buffer.concat([oneTextColumn('name'), dataRow('abc')]);
    expect(() => readBackendResult(reply.subarray(0, reply.length - 1))).toThrow(
      /ends inside a message/,
    );
    expect(() => readBackendResult(Buffer.concat([reply, Buffer.from([0x5a, 0])]))).toThrow(
      /message header/,
    );
  });

  it('refuses a row whose cell count differs from its description', () => {
    const reply = Buffer.concat([oneTextColumn('name'), dataRow('a', 'b'), ready]);
    expect(() => readBackendResult(reply)).toThrow(/does not match its row description/);
  });

  it('answers the first error with its fields', () => {
    const fields = Buffer.from('SERROR\0C23505\0Mduplicate key\0nitems_pkey\0\0');
    const reply = Buffer.concat([message('E', fields), ready]);
    const result = readBackendResult(reply);
    expect(result).toHaveProperty('error');
    expect('error' in result && result.error).toMatchObject({
      severity: 'ERROR',
      code: '23505',
      message: 'duplicate key',
      constraint: 'items_pkey',
    });
  });
});
