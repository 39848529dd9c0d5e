import { describe, expect, it } from 'vitest';
import {
  orphanedSlots,
  slotClaimOrder,
  slotDirectoryName,
  slotOfDirectoryName,
  type SlotState,
} from './slot-choice.js';

const state = (slot: number, owner: string | undefined, leased: boolean, hasSegments: boolean) =>
  ({ slot, owner, leased, hasSegments }) satisfies SlotState;

describe('slotClaimOrder', () => {
  it('takes a new slot 0 on an empty root', () => {
    expect(slotClaimOrder([], 'a')).toEqual([0]);
  });

  it("puts this instance's own slot first, even while its old lease looks fresh", () => {
    const slots = [
      state(0, 'x', false, true),
      state(1, 'a', true, true),
      state(2, 'y', true, true),
    ];
    expect(slotClaimOrder(slots, 'a')).toEqual([1, 0, 3]);
  });

  it('prefers free slots with segments (lowest first) over empty ones, then a new one', () => {
    const slots = [
      state(4, 'x', false, false),
      state(3, 'y', false, true),
      state(1, 'z', true, true),
      state(0, undefined, false, true),
    ];
    expect(slotClaimOrder(slots, 'a')).toEqual([0, 3, 4, 5]);
  });

  it('never offers a slot another live replica leases', () => {
    const slots = [state(0, 'x', true, true), state(1, 'y', true, false)];
    expect(slotClaimOrder(slots, 'a')).toEqual([2]);
  });
});

describe('orphanedSlots', () => {
  it('lists free slots that still hold segments, in order', () => {
    const slots = [
      state(2, 'x', false, true),
      state(0, 'y', false, true),
      state(1, 'z', true, true),
      state(3, 'w', false, false),
    ];
    expect(orphanedSlots(slots)).toEqual([0, 2]);
  });
});

describe('slot directory names', () => {
  it('round-trip, and nothing else is read as a slot', () => {
    expect(slotDirectoryName(7)).toBe('slot-007');
    expect(slotOfDirectoryName(slotDirectoryName(1234))).toBe(1234);
    for (const name of ['slot-007.lock', 'segment-0000000001.log', 'slot-7', 'owner', 'slot-abc'])
      expect(slotOfDirectoryName(name)).toBeUndefined();
  });
});
