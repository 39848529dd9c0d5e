/**
 * The data service's errors: each has a stable code, a gRPC status and (for invalid input) the
 * per-field violations sent as google.rpc.BadRequest. Mapping to the wire is in grpc/to-grpc-error.ts.
 */
import { status } from '@grpc/grpc-js';

/** One invalid field, in the shape of google.rpc.BadRequest.FieldViolation. */
export interface FieldViolation {
  readonly field: string;
  readonly description: string;
  readonly reason: string;
}

/** Stable error codes; documented in docs/data-service.md and never reused. */
export const DATA_ERROR_STATUS = {
  DATA_INVALID_ARGUMENT: status.INVALID_ARGUMENT,
  DATA_ITEM_NOT_FOUND: status.NOT_FOUND,
  DATA_VERSION_CONFLICT: status.ABORTED,
  DATA_TITLE_TAKEN: status.ALREADY_EXISTS,
  DATA_DEADLINE_EXCEEDED: status.DEADLINE_EXCEEDED,
  DATA_UNAVAILABLE: status.UNAVAILABLE,
  DATA_INTERNAL: status.INTERNAL,
} as const;

/** A data-service error code. */
export type DataErrorCode = keyof typeof DATA_ERROR_STATUS;

/** An expected failure with a code the client can act on; anything else is INTERNAL. */
export class DataError extends Error {
  readonly code: DataErrorCode;
  readonly violations: readonly FieldViolation[];

  constructor(
    code: DataErrorCode,
    message: string,
    violations: readonly FieldViolation[] = [],
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'DataError';
    this.code = code;
    this.violations = violations;
  }
}

/** INVALID_ARGUMENT listing every violation. */
export function invalidArgument(violations: readonly FieldViolation[]): DataError {
  const fields = violations.map((v) => v.field).join(', ');
  return new DataError('DATA_INVALID_ARGUMENT', `Invalid request: check ${fields}`, violations);
}
