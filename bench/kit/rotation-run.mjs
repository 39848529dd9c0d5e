// Runs a rotation (rotation.mjs's order): every `restartEvery` rounds a fresh session, its sides
// started in an order that rotates from session to session (whichever side starts first can read
// slow for the whole session), and in every round each side measured once, in that round's order.
import { rotationOrder } from './rotation.mjs';

/**
 * `open(startOrder)` resolves with a session `{ measure(label), close() }`; `onRound(index,
 * measured)` hears each round. Resolves with the rounds, `[{ label: measurement }]`; the last
 * session is closed however the run ends.
 */
export async function runRotation({ labels, rounds, restartEvery, open, onRound }) {
  const measuredRounds = [];
  let session;
  try {
    for (let round = 0; round < rounds; round++) {
      if (round % restartEvery === 0) {
        const previous = session;
        session = undefined;
        await previous?.close();
        session = await open(rotationOrder(labels, round / restartEvery));
      }
      const measured = {};
      for (const label of rotationOrder(labels, round))
        measured[label] = await session.measure(label);
      measuredRounds.push(measured);
      onRound?.(round, measured);
    }
  } finally {
    await session?.close();
  }
  return measuredRounds;
}
