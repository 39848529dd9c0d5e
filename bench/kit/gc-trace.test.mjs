import { describe, expect, it } from 'vitest';
import { countsByKind, gcTotals } from './gc-trace.mjs';

const scavenge = (pause, promoted, survived) =>
  `[562:0x1972b000:0]    11468 ms: pause=${pause} mutator=27.9 gc=s scavenge=2.72 ` +
  `allocated=51915752 promoted=${promoted} new_space_survived=${survived} nodes_promoted=1 ` +
  `new_space_capacity=67108864 old_gen_allocation_limit=324278784`;
const markCompact =
  '[562:0x1972b000:0]    11900 ms: pause=7.5 mutator=400.1 gc=mc reduce_memory=0 ' +
  'promoted=13370000 new_space_survived=0 allocated=16000';

describe('gcTotals', () => {
  it('sums each kind of collection and keeps the last scavenge capacity', () => {
    const totals = gcTotals(
      [
        'some log line',
        scavenge(2.8, 2727840, 3163168),
        scavenge(1.6, 492248, 807456),
        markCompact,
      ].join('\n'),
    );
    expect(totals.kinds.s).toEqual({
      count: 2,
      pauseMs: 4.4,
      promoted: 3220088,
      survived: 3970624,
      allocated: 2 * 51915752,
    });
    expect(countsByKind(totals)).toEqual({ s: 2, mc: 1 });
    expect(totals.pauseMs).toBeCloseTo(11.9);
    expect(totals.promoted).toBe(3220088 + 13370000);
    expect(totals.newSpaceCapacity).toBe(67108864);
  });

  it("reads Node 26's lines, whose fields are a JSON object, as Node 24's words", () => {
    const asJson = (pause, gc, promoted) =>
      `[562:0x1972b000:0]   11468 ms: GC: {"pause":${pause},"mutator":27.9,"gc":"${gc}",` +
      `"reason":"allocation failure","new_space_capacity":33554432,"allocated":51915752,` +
      `"promoted":${promoted},"new_space_survived":807456,"nodes_promoted":1}`;
    const totals = gcTotals(
      [
        '[562:0x1972b000:0]       36 ms: Memory pool: Removed pages: 0, removed large pages: 0',
        asJson(2.5, 's', 1000),
        asJson(1.5, 's', 2000),
        asJson(7, 'mc', 50),
      ].join('\n'),
    );
    expect(totals.kinds.s).toEqual({
      count: 2,
      pauseMs: 4,
      promoted: 3000,
      survived: 2 * 807456,
      allocated: 2 * 51915752,
    });
    expect(countsByKind(totals)).toEqual({ s: 2, mc: 1 });
    expect(totals.promoted).toBe(3050);
    expect(totals.newSpaceCapacity).toBe(33554432);
  });

  it('reads `promoted=` as its own field, not the tail of `nodes_promoted=`', () => {
    expect(gcTotals('1 ms: pause=1 gc=s nodes_promoted=9 promoted=5').promoted).toBe(5);
  });

  it('is empty for a trace with no collections', () => {
    expect(gcTotals('listening on 127.0.0.1:3000\n')).toEqual({
      kinds: {},
      pauseMs: 0,
      promoted: 0,
      newSpaceCapacity: 0,
    });
  });
});
