/**
 * The one place errors become gRPC statuses. Expected DataErrors keep their message and carry
 * google.rpc.Status details (BadRequest, ErrorInfo) in `grpc-status-details-bin`; anything else
 * is logged in full and answered with a generic message and a reference id, never internals.
 */
import { Metadata, status, type ServiceError } from '@grpc/grpc-js';
import { BadRequest, ErrorInfo, RpcStatus, type Any } from '@strata/proto';
import { randomUUID } from 'node:crypto';
import { DATA_ERROR_STATUS, DataError } from '../errors.js';
import { isConnectionFailure, isReadOnlyServer } from '../storage/connection-failures.js';

/** Error domain reported in google.rpc.ErrorInfo. */
export const ERROR_DOMAIN = 'data.strata.dev';

/** Turns known infrastructure failures into DataErrors; returns null for real bugs. */
export function classifyError(error: unknown): DataError | null {
  if (error instanceof DataError) return error;
  const code = (error as { code?: unknown } | null)?.code;
  if (code === '57014')
    return new DataError(
      'DATA_DEADLINE_EXCEEDED',
      'The deadline expired while the database was working.',
      [],
      { cause: error },
    );
  if (code === '23505')
    return new DataError(
      'DATA_TITLE_TAKEN',
      'An item with this title already exists in the category.',
      [],
      { cause: error },
    );
  if (code === '40001' || code === '40P01')
    return new DataError('DATA_UNAVAILABLE', 'The write conflicted with another; retry it.', [], {
      cause: error,
    });
  if (isReadOnlyServer(error))
    return new DataError(
      'DATA_UNAVAILABLE',
      'The database server is read-only (its primary moved); the write was not applied. Retry it shortly.',
      [],
      { cause: error },
    );
  if (isConnectionFailure(error))
    return new DataError('DATA_UNAVAILABLE', 'The database is unavailable; retry later.', [], {
      cause: error,
    });
  return null;
}

/** The ServiceError to send, plus the reference id when the error was unexpected. */
export function toGrpcError(error: unknown): {
  serviceError: Partial<ServiceError>;
  reference?: string;
} {
  const known = classifyError(error);
  const reference = known ? undefined : randomUUID();
  const code = known ? DATA_ERROR_STATUS[known.code] : status.INTERNAL;
  const message = known ? known.message : `Internal error (reference ${reference}).`;
  const details: Any[] = [
    {
      typeUrl: 'type.googleapis.com/google.rpc.ErrorInfo',
      value: Buffer.from(
        ErrorInfo.encode({
          reason: known ? known.code : 'DATA_INTERNAL',
          domain: ERROR_DOMAIN,
          metadata: reference ? { reference } : {},
        }).finish(),
      ),
    },
  ];
  if (known && known.violations.length > 0)
    details.push({
      typeUrl: 'type.googleapis.com/google.rpc.BadRequest',
      value: Buffer.from(BadRequest.encode({ fieldViolations: [...known.violations] }).finish()),
    });
  const metadata = new Metadata();
  metadata.set(
    'grpc-status-details-bin',
    Buffer.from(RpcStatus.encode({ code, message, details }).finish()),
  );
  return { serviceError: { code, details: message, metadata }, ...(reference && { reference }) };
}
