/**
 * What a failed catalogue call means to the code that made it: the gRPC status stops here, and
 * callers see a kind they can act on (not found, invalid, a conflict…), the data service's
 * message, its field violations and reason. The gRPC error stays as `cause`, for logs.
 */
import { status } from '@grpc/grpc-js';
import { GrpcCallError } from '@strata/grpc-transport';
import { readStatusDetails } from '@strata/proto';

/** Why a call failed, in the catalogue's words. */
export type CatalogErrorKind =
  /** The item (or page token's query) does not exist. */
  | 'not-found'
  /** The request broke the data service's rules (see `fieldErrors`). */
  | 'invalid'
  /** A unique value (an item's title) is taken. */
  | 'exists'
  /** The item changed since the caller read it (its version). */
  | 'conflict'
  /** No replica could answer in time; trying later may work. */
  | 'unavailable'
  /** The data service failed. */
  | 'failed';

const KINDS: ReadonlyMap<number, CatalogErrorKind> = new Map([
  [status.NOT_FOUND, 'not-found'],
  [status.INVALID_ARGUMENT, 'invalid'],
  [status.OUT_OF_RANGE, 'invalid'],
  [status.ALREADY_EXISTS, 'exists'],
  [status.ABORTED, 'conflict'],
  [status.FAILED_PRECONDITION, 'conflict'],
  [status.UNAVAILABLE, 'unavailable'],
  [status.DEADLINE_EXCEEDED, 'unavailable'],
  [status.RESOURCE_EXHAUSTED, 'unavailable'],
  [status.CANCELLED, 'unavailable'],
]);

/** A catalogue call that failed. */
export class CatalogError extends Error {
  readonly kind: CatalogErrorKind;
  /** Field violations by the data service's field name (`item.title`, `page_token`). */
  readonly fieldErrors: Readonly<Record<string, readonly string[]>>;
  /** The data service's machine-readable reason, when it gave one (`DATA_UNAVAILABLE`). */
  readonly reason: string | undefined;

  constructor(kind: CatalogErrorKind, cause: GrpcCallError) {
    super(cause.details, { cause });
    this.name = 'CatalogError';
    this.kind = kind;
    const details = readStatusDetails(cause.metadata);
    const fieldErrors: Record<string, string[]> = {};
    for (const violation of details.violations)
      (fieldErrors[violation.field] ??= []).push(violation.description);
    this.fieldErrors = fieldErrors;
    this.reason = details.reason || undefined;
  }
}

/** `error` as a CatalogError when it is a gRPC status; anything else (an abort) as it is. */
export function catalogErrorOf(error: unknown): unknown {
  if (!(error instanceof GrpcCallError)) return error;
  return new CatalogError(KINDS.get(error.code) ?? 'failed', error);
}
