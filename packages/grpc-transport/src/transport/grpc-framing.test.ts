import { status } from '@grpc/grpc-js';
import { describe, expect, it } from 'vitest';
import {
  frameMessage,
  grpcTimeout,
  readUnaryMessage,
  statusFromHttp,
  statusOf,
} from './grpc-framing.js';

describe('frameMessage / readUnaryMessage', () => {
  it('round-trips a message through the length prefix', () => {
    const message = Buffer.from('a protobuf message');
    const frame = frameMessage(message);
    expect([...frame.subarray(0, 5)]).toEqual([0, 0, 0, 0, message.length]);
    expect(readUnaryMessage(frame)).toEqual({ message });
    expect(readUnaryMessage(frameMessage(new Uint8Array(0)))).toEqual({ message: Buffer.alloc(0) });
  });

  it('refuses bodies that are not exactly one uncompressed message', () => {
    const frame = frameMessage(Buffer.from('12345678'));
    const code = (body: Buffer, max?: number) => {
      const read = readUnaryMessage(body, max);
      return 'failure' in read ? read.failure.code : 'ok';
    };
    expect(code(Buffer.alloc(0))).toBe(status.INTERNAL);
    expect(code(frame.subarray(0, 9))).toBe(status.INTERNAL); // truncated
    expect(code(Buffer.concat([frame, frame]))).toBe(status.INTERNAL); // two messages
    const compressed = Buffer.from(frame);
    compressed[0] = 1;
    expect(code(compressed)).toBe(status.INTERNAL);
    expect(code(frame, 7)).toBe(status.RESOURCE_EXHAUSTED);
    expect(code(frame, 8)).toBe('ok');
  });
});

describe('grpcTimeout', () => {
  it('writes milliseconds, rounded up, in at most 8 digits', () => {
    expect(grpcTimeout(0)).toBe('0m');
    expect(grpcTimeout(2000)).toBe('2000m');
    expect(grpcTimeout(0.2)).toBe('1m');
    expect(grpcTimeout(-5)).toBe('0m');
    expect(grpcTimeout(99_999_999)).toBe('99999999m');
    expect(grpcTimeout(100_000_000)).toBe('100000S');
    expect(grpcTimeout(100_000_000_001)).toBe('27778H');
  });
});

describe('statusOf', () => {
  it('reads the code and percent-decodes the message', () => {
    expect(statusOf({ 'grpc-status': '0' })).toEqual({ code: status.OK, details: '' });
    expect(statusOf({ 'grpc-status': '5', 'grpc-message': 'item%2042%20not%20found' })).toEqual({
      code: status.NOT_FOUND,
      details: 'item 42 not found',
    });
    // Broken percent-encoding is kept as sent rather than thrown away.
    expect(statusOf({ 'grpc-status': '13', 'grpc-message': '100%' })?.details).toBe('100%');
  });

  it('has no status without grpc-status, and UNKNOWN for one out of range', () => {
    expect(statusOf({ ':status': 200 } as never)).toBeUndefined();
    expect(statusOf({ 'grpc-status': '17' })?.code).toBe(status.UNKNOWN);
    expect(statusOf({ 'grpc-status': 'ok' })?.code).toBe(status.UNKNOWN);
  });
});

describe('statusFromHttp', () => {
  it('maps HTTP statuses as gRPC specifies', () => {
    const codes = [400, 401, 403, 404, 429, 502, 503, 504, 500].map(
      (http) => status[statusFromHttp(http).code],
    );
    expect(codes).toEqual([
      'INTERNAL',
      'UNAUTHENTICATED',
      'PERMISSION_DENIED',
      'UNIMPLEMENTED',
      'UNAVAILABLE',
      'UNAVAILABLE',
      'UNAVAILABLE',
      'UNAVAILABLE',
      'UNKNOWN',
    ]);
    expect(statusFromHttp(503).details).toContain('HTTP 503');
  });
});
