/**
 * Receives one request's envelope as its bytes stream in and refuses it as early as they allow:
 * every per-part limit at the first byte over it, the shared budget of bytes all requests hold,
 * and the DSN and the project key's request rate as soon as the envelope header line is
 * complete, before the items are read. A refusal keeps nothing. Framework-free (the route feeds
 * it decoded chunks).
 */
import type { AllowedDsn, DsnRegistry } from '../dsn/dsn-registry.js';
import type { Envelope, EnvelopeError } from '../envelope/envelope.js';
import { createEnvelopeReader, type ReaderLimits } from '../envelope/envelope-reader.js';
import { RelayError, type RelayErrorCode } from '../errors.js';
import type { AuthInputs } from '../http/request-auth.js';
import { createItemAdmission, type ItemBudgets } from '../limits/item-budgets.js';
import type { SharedByteBudget } from '../limits/shared-byte-budget.js';
import { clientRateLimited } from '../rate-limits/client-limits.js';
import type { RequestLimiter } from '../rate-limits/request-limiter.js';
import { resolveDsn, type Endpoint } from './resolve-dsn.js';

/** What reading an envelope needs. */
export interface IntakeContext {
  readonly registry: DsnRegistry;
  readonly readerLimits: ReaderLimits;
  readonly budgets: ItemBudgets;
  /** Requests per project key; absent where requests are not counted (the debug endpoint). */
  readonly keyLimiter?: RequestLimiter | undefined;
  /** What all bodies being read may hold together. */
  readonly bodyMemory: SharedByteBudget;
  readonly now: () => number;
}

/** A received envelope for an allowed DSN, with the bytes it arrived as. */
export interface ReceivedEnvelope {
  readonly dsn: AllowedDsn;
  readonly envelope: Envelope;
  readonly bytes: Uint8Array;
}

/** One request's envelope in the making. */
export interface EnvelopeIntake {
  /** Takes the next decoded bytes; throws `RelayError` to refuse the request. */
  push(chunk: Uint8Array): void;
  /** The body ended: the envelope, or throws `RelayError`. */
  finish(): ReceivedEnvelope;
  /**
   * With a limit shared with other replicas: its answer, rejecting with `RelayError` when it
   * refused the key. Undefined when the key was decided at once (nothing to wait for).
   */
  admitted(): Promise<void> | undefined;
  /** The request is answered: its bytes no longer count against the shared budget. */
  release(): void;
  /** Whether the envelope has named a known DSN (even if it was then refused for its rate). */
  senderKnown(): boolean;
}

const STATUS_OF: Partial<Record<EnvelopeError['code'], RelayErrorCode>> = {
  'header-too-large': 'RELAY_HEADER_TOO_LARGE',
  'item-too-large': 'RELAY_ITEM_TOO_LARGE',
  'envelope-too-large': 'RELAY_ENVELOPE_TOO_LARGE',
};

/** Starts receiving an envelope sent to `endpoint` with `auth`. */
export function createEnvelopeIntake(
  context: IntakeContext,
  endpoint: Endpoint,
  auth: Omit<AuthInputs, 'envelopeDsn'>,
): EnvelopeIntake {
  const reader = createEnvelopeReader(context.readerLimits, createItemAdmission(context.budgets));
  /** Set once the header names an allowed DSN, before its key's rate is checked. */
  let dsn: AllowedDsn | undefined;
  let held = 0;
  /** A shared key limit's answer, read while the body arrives; awaited by `admitted`. */
  let keyDecision: Promise<number> | undefined;

  // Who the envelope is for decides before any size problem further on is reported.
  function admitHeader(): void {
    const header = reader.header();
    if (dsn || !header) return;
    dsn = resolveDsn(context.registry, endpoint, auth, header);
    // A refusal ends the intake: nothing is pushed after a throw.
    const wait = context.keyLimiter?.take(dsn.key, context.now()) ?? 0;
    if (typeof wait !== 'number') keyDecision = wait;
    else if (wait > 0) throw clientRateLimited('key', wait);
  }

  return {
    push(chunk) {
      if (!context.bodyMemory.reserve(held, chunk.length)) {
        throw new RelayError('RELAY_OVERLOADED', 'the relay is receiving too much at once; retry', {
          headers: { 'retry-after': '1' },
        });
      }
      held += chunk.length;
      const problem = reader.push(chunk);
      admitHeader();
      if (problem) throw refusal(problem);
    },
    finish() {
      const result = reader.finish();
      admitHeader();
      if (!result.ok) throw refusal(result.error);
      return { dsn: dsn!, envelope: result.envelope, bytes: result.bytes };
    },
    release() {
      context.bodyMemory.release(held);
      held = 0;
    },
    admitted() {
      return keyDecision?.then((wait) => {
        if (wait > 0) throw clientRateLimited('key', wait);
      });
    },
    senderKnown: () => dsn !== undefined,
  };
}

function refusal(problem: EnvelopeError): RelayError {
  const code = STATUS_OF[problem.code];
  if (code) return new RelayError(code, problem.message);
  return new RelayError(
    'RELAY_ENVELOPE_MALFORMED',
    `malformed envelope: ${problem.message} (at byte ${problem.offset})`,
  );
}
