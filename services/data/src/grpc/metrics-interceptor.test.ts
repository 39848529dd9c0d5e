import { status } from '@grpc/grpc-js';
import { describe, expect, it } from 'vitest';
import { endedWithoutStatus } from './metrics-interceptor.js';

describe('endedWithoutStatus', () => {
  it('is DEADLINE_EXCEEDED once the deadline has passed, else CANCELLED (the client left)', () => {
    expect(endedWithoutStatus(1000, 1000)).toBe(status.DEADLINE_EXCEEDED);
    expect(endedWithoutStatus(new Date(999), 1000)).toBe(status.DEADLINE_EXCEEDED);
    expect(endedWithoutStatus(1001, 1000)).toBe(status.CANCELLED);
    expect(endedWithoutStatus(Infinity, 1000)).toBe(status.CANCELLED);
  });
});
