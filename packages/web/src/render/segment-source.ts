/**
 * Where the segment tree gets each segment's outcome: on the server from running loaders, in
 * the browser from inline scripts or payload records. Promises are stable per key so React's
 * `use()` can suspend on them.
 */
import { packRows } from '../protocol/row-tables.js';
import type { DeferredOutcome, SegmentOutcome } from './segment-outcome.js';

/** A segment as rendered: its outcome plus what the browser needs to reuse and invalidate it. */
export interface SegmentState {
  readonly key: string;
  readonly tags: readonly string[];
  readonly private: boolean;
  readonly outcome: SegmentOutcome;
}

/** Outcomes for one rendered route. */
export interface SegmentSource {
  segment(segmentId: string): Promise<SegmentState>;
  deferred(segmentId: string, key: string): Promise<DeferredOutcome>;
  /** Server: inline each outcome as a script for hydration. */
  readonly emitScripts: boolean;
}

/** Global the inline scripts push into: `[kind, segmentId, key?, outcome]` tuples. */
export const INLINE_QUEUE = '__strata';

/**
 * The inline script text that hands one outcome to the browser; lists of like records are
 * written with their keys once (protocol/row-tables.ts), the reader unpacks them.
 */
export function inlineScript(entry: readonly unknown[], json: (value: unknown) => string): string {
  return `(self.${INLINE_QUEUE}=self.${INLINE_QUEUE}||[]).push(${json(packRows(entry))})`;
}
