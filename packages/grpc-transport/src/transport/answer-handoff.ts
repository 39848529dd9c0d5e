/**
 * Hands finished calls' outcomes to their callers one per event-loop turn, from the check phase.
 *
 * Why: node writes HTTP/2 frames from a native immediate, so a data call started while this
 * thread is busy leaves only when the current poll phase is over. Settling an answer inside the
 * poll phase renders its page there too, and every request read in the same phase waited for all
 * of those renders before its data call was sent: the data service sat idle while this thread
 * rendered, then this thread sat idle while the data service answered (the machine sat partly
 * idle at full load). Delivering one outcome per turn lets every turn poll first; the data calls
 * started there are flushed (native immediates run before JavaScript ones) before the next page
 * renders. Delivering every settled answer in the same check phase instead (after the flush,
 * but with no poll between renders) served fewer pages (bench/render/RESULTS.md, "answers
 * handed over one per event-loop turn").
 */

/** Queues `deliver`; it runs in a later event-loop turn, one queued delivery per turn, in order. */
export type AnswerHandoff = (deliver: () => void) => void;

export function createAnswerHandoff(): AnswerHandoff {
  // Two lists, so a backlog that never quite drains under steady load cannot grow one array
  // without end: `delivering` is taken whole from `queued` once it is used up.
  let delivering: (() => void)[] = [];
  let next = 0;
  let queued: (() => void)[] = [];
  let scheduled = false;

  function deliverOne(): void {
    if (next === delivering.length) {
      delivering = queued;
      queued = [];
      next = 0;
    }
    const deliver = delivering[next++]!;
    if (next < delivering.length || queued.length > 0)
      setImmediate(deliverOne); // queued now, so it runs in the next turn
    else {
      delivering = []; // hold no delivered answer while idle
      next = 0;
      scheduled = false;
    }
    deliver();
  }

  return (deliver) => {
    queued.push(deliver);
    if (scheduled) return;
    scheduled = true;
    setImmediate(deliverOne);
  };
}
