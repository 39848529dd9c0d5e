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
