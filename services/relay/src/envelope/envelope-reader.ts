/**
 * Incremental, spec-exact envelope reader (develop docs "Envelopes": one JSON header line, then
 * items of header line + payload, explicit `length` in bytes or implicit up to the next `\n`/EOF).
 * Bytes are pushed as they arrive, already decompressed, and every per-part limit is checked at
 * the first byte that breaks it: the envelope header line and each item header line, each
 * payload against the budget of its item type (known from its header, before the payload), the
 * whole envelope. So a refusal never waits for, or holds, the rest of the body. Header lines are
 * parsed within a nesting bound; payloads are never decoded. Pure.
 */
import type { Envelope, EnvelopeError, EnvelopeItem, JsonObject } from './envelope.js';
import { printable, readEnvelopeHeader, readItemHeader } from './header-lines.js';
import { UNBOUNDED_ADMISSION, type ItemAdmission, type PayloadBudget } from './item-admission.js';
import { concatBytes } from './serialize-envelope.js';

const NEWLINE = 0x0a;

/** Bounds of the grammar's parts. */
export interface ReaderLimits {
  readonly maxEnvelopeBytes: number;
  /** The envelope header line and each item header line, newline excluded. */
  readonly maxHeaderBytes: number;
  readonly maxItems: number;
  readonly maxJsonDepth: number;
}

/** A read envelope and the bytes it was read from (payloads are views into them). */
export type ReadResult =
  | { readonly ok: true; readonly envelope: Envelope; readonly bytes: Uint8Array }
  | { readonly ok: false; readonly error: EnvelopeError };

/** Takes the body in pieces. */
export interface EnvelopeReader {
  /** Takes the next bytes; returns the first problem (and takes nothing after it). */
  push(chunk: Uint8Array): EnvelopeError | null;
  /** The envelope header, as soon as its line is complete. */
  header(): JsonObject | undefined;
  /** Ends the input. */
  finish(): ReadResult;
}

interface ItemSpan {
  readonly type: string;
  readonly header: JsonObject;
  readonly headerStart: number;
  readonly headerEnd: number;
  readonly payloadStart: number;
  payloadEnd: number;
}

type State =
  | { readonly kind: 'envelope-header' }
  | { readonly kind: 'item-header' }
  | { readonly kind: 'sized-payload'; remaining: number }
  | { readonly kind: 'after-payload' }
  | { readonly kind: 'line-payload'; size: number; readonly budget: PayloadBudget };

/** Creates a reader enforcing `limits`, with item budgets from `admission`. */
export function createEnvelopeReader(
  limits: ReaderLimits,
  admission: ItemAdmission = UNBOUNDED_ADMISSION,
): EnvelopeReader {
  const chunks: Uint8Array[] = [];
  const items: ItemSpan[] = [];
  let total = 0;
  let state: State = { kind: 'envelope-header' };
  let line: Uint8Array[] = [];
  let lineLength = 0;
  let lineStart = 0;
  let envelopeHeader: JsonObject | undefined;
  let envelopeHeaderEnd = 0;
  let failure: EnvelopeError | null = null;

  const fail = (code: EnvelopeError['code'], message: string, offset: number) => {
    failure = { code, message, offset };
    return failure;
  };
  const itemName = () => `item ${items.length - 1} (${printable(current()?.type ?? '')})`;
  const current = (): ItemSpan | undefined => items[items.length - 1];

  /** A header line ended at absolute offset `end` (exclusive; the newline or EOF). */
  function completeLine(end: number): void {
    const bytes = line.length === 1 ? line[0]! : concatBytes(line);
    line = [];
    lineLength = 0;
    if (state.kind === 'envelope-header') {
      const read = readEnvelopeHeader(bytes, limits.maxJsonDepth);
      if (!read.ok) {
        fail(read.code, read.message, 0);
        return;
      }
      envelopeHeader = read.header;
      envelopeHeaderEnd = end;
      state = { kind: 'item-header' };
      return;
    }
    if (items.length >= limits.maxItems) {
      fail('too-many-items', `more than ${limits.maxItems} items`, lineStart);
      return;
    }
    const item = readItemHeader(bytes, limits.maxJsonDepth, items.length);
    if (!item.ok) {
      fail(item.code, item.message, lineStart);
      return;
    }
    const { type, header, declared } = item;
    const payloadStart = end + 1;
    items.push({
      type,
      header,
      headerStart: lineStart,
      headerEnd: end,
      payloadStart,
      payloadEnd: payloadStart,
    });
    const budget = admission.start(type, header);
    if (typeof budget === 'string') {
      fail('item-too-large', `${itemName()}: ${budget}`, lineStart);
      return;
    }
    if (typeof declared !== 'number') {
      state = { kind: 'line-payload', size: 0, budget };
      return;
    }
    if (declared > budget.maxBytes) {
      fail(
        'item-too-large',
        `${itemName()} declares ${declared} bytes, over ${budget.name}`,
        lineStart,
      );
      return;
    }
    state = { kind: 'sized-payload', remaining: declared };
    if (declared === 0) endItem(payloadStart);
  }

  function endItem(payloadEnd: number): void {
    const item = current()!;
    item.payloadEnd = payloadEnd;
    admission.end(item.type, payloadEnd - item.payloadStart);
    state = state.kind === 'sized-payload' ? { kind: 'after-payload' } : { kind: 'item-header' };
  }

  /** Consumes `chunk` (which starts at absolute offset `base`) from `from`; returns where it stopped. */
  function step(chunk: Uint8Array, base: number, from: number): number {
    switch (state.kind) {
      case 'envelope-header':
      case 'item-header': {
        const newline = chunk.indexOf(NEWLINE, from);
        const end = newline === -1 ? chunk.length : newline;
        if (lineLength === 0) lineStart = base + from;
        if (lineLength + (end - from) > limits.maxHeaderBytes) {
          const which =
            state.kind === 'envelope-header'
              ? 'the envelope header'
              : `item ${items.length} header`;
          fail(
            'header-too-large',
            `${which} is over the ${limits.maxHeaderBytes}-byte header limit`,
            lineStart,
          );
          return chunk.length;
        }
        if (end > from) line.push(chunk.subarray(from, end));
        lineLength += end - from;
        if (newline === -1) return chunk.length;
        if (state.kind === 'item-header' && lineLength === 0) {
          fail(
            'item-header-not-json',
            `item ${items.length} header is not a JSON object`,
            base + newline,
          );
          return chunk.length;
        }
        completeLine(base + newline);
        return newline + 1;
      }
      case 'sized-payload': {
        const take = Math.min(state.remaining, chunk.length - from);
        state.remaining -= take;
        if (state.remaining === 0) endItem(base + from + take);
        return from + take;
      }
      case 'after-payload': {
        if (chunk[from] !== NEWLINE) {
          fail(
            'missing-newline',
            `item ${items.length - 1} payload is not followed by a newline`,
            base + from,
          );
          return chunk.length;
        }
        state = { kind: 'item-header' };
        return from + 1;
      }
      case 'line-payload': {
        const newline = chunk.indexOf(NEWLINE, from);
        const end = newline === -1 ? chunk.length : newline;
        state.size += end - from;
        if (state.size > state.budget.maxBytes) {
          fail(
            'item-too-large',
            `${itemName()} is over ${state.budget.name}`,
            current()!.payloadStart,
          );
          return chunk.length;
        }
        if (newline === -1) return chunk.length;
        endItem(base + newline);
        return newline + 1;
      }
    }
  }

  return {
    push(chunk) {
      if (failure || chunk.length === 0) return failure;
      const base = total;
      total += chunk.length;
      if (total > limits.maxEnvelopeBytes) {
        return fail(
          'envelope-too-large',
          `the envelope is over the ${limits.maxEnvelopeBytes}-byte limit`,
          limits.maxEnvelopeBytes,
        );
      }
      chunks.push(chunk);
      for (let from = 0; from < chunk.length;) {
        from = step(chunk, base, from);
        if (failure) break;
      }
      return failure;
    },
    header: () => envelopeHeader,
    finish() {
      if (!failure) finishInput();
      if (failure) return { ok: false, error: failure };
      const bytes = chunks.length === 1 ? chunks[0]! : concatBytes(chunks);
      const envelope = {
        header: envelopeHeader!,
        headerBytes: bytes.subarray(0, envelopeHeaderEnd),
        items: items.map((item): EnvelopeItem => ({
          type: item.type,
          header: item.header,
          headerBytes: bytes.subarray(item.headerStart, item.headerEnd),
          payload: bytes.subarray(item.payloadStart, item.payloadEnd),
        })),
      };
      return { ok: true, envelope, bytes };
    },
  };

  /** Applies EOF to the state: an unterminated line or payload ends here. */
  function finishInput(): void {
    if (total === 0) {
      fail('empty', 'the body is empty', 0);
      return;
    }
    if (state.kind === 'envelope-header' || (state.kind === 'item-header' && lineLength > 0)) {
      completeLine(total);
      if (failure) return;
    }
    if (state.kind === 'line-payload') endItem(Math.max(total, current()!.payloadStart));
    else if (state.kind === 'sized-payload' && state.remaining > 0) {
      const item = current()!;
      fail(
        'truncated-payload',
        `item ${items.length - 1} declares ${Number(item.header.length)} bytes but the body ends first`,
        Math.min(item.payloadStart, total),
      );
    }
  }
}
