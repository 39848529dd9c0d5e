import { describe, expect, it } from 'vitest';
import { rotationOrder } from './rotation.mjs';
import { runRotation } from './rotation-run.mjs';

/** Sessions that record what was asked of them; side `label` measures as `label` + round. */
function recordingSessions({ failAt } = {}) {
  const events = [];
  let measuredCount = 0;
  const open = async (startOrder) => {
    events.push(['open', startOrder.join(',')]);
    return {
      async measure(label) {
        if (measuredCount++ === failAt) throw new Error('the load failed');
        events.push(['measure', label]);
        return `${label}${measuredCount}`;
      },
      async close() {
        events.push(['close']);
      },
    };
  };
  return { events, open };
}

describe('runRotation', () => {
  it('opens a session every restartEvery rounds, in the rotating start order, and closes each', async () => {
    const labels = ['a', 'b', 'c'];
    const { events, open } = recordingSessions();
    const rounds = await runRotation({ labels, rounds: 4, restartEvery: 2, open });
    expect(rounds).toHaveLength(4);
    expect(events.filter(([kind]) => kind === 'open')).toEqual([
      ['open', rotationOrder(labels, 0).join(',')],
      ['open', rotationOrder(labels, 1).join(',')],
    ]);
    expect(events.filter(([kind]) => kind === 'close')).toHaveLength(2);
    expect(events.at(-1)).toEqual(['close']);
  });

  it('measures every side once a round, in that round’s order, and reports each round', async () => {
    const labels = ['a', 'b'];
    const { events, open } = recordingSessions();
    const heard = [];
    const rounds = await runRotation({
      labels,
      rounds: 2,
      restartEvery: 2,
      open,
      onRound: (index, measured) => heard.push([index, Object.keys(measured).sort()]),
    });
    const measuredOrder = events.filter(([kind]) => kind === 'measure').map(([, label]) => label);
    expect(measuredOrder).toEqual([...rotationOrder(labels, 0), ...rotationOrder(labels, 1)]);
    expect(Object.keys(rounds[1]).sort()).toEqual(['a', 'b']);
    expect(heard).toEqual([
      [0, ['a', 'b']],
      [1, ['a', 'b']],
    ]);
  });

  it('closes the open session when a measurement fails, and rejects with that failure', async () => {
    const { events, open } = recordingSessions({ failAt: 1 });
    await expect(
      runRotation({ labels: ['a', 'b'], rounds: 2, restartEvery: 2, open }),
    ).rejects.toThrow('the load failed');
    expect(events.at(-1)).toEqual(['close']);
  });
});
