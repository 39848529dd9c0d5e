/**
 * Reads the google.rpc.Status details a Strata service attaches to an error
 * (`grpc-status-details-bin`): the machine-readable reason and per-field violations.
 */
import type { Metadata } from '@grpc/grpc-js';
import { BadRequest, ErrorInfo } from './gen/google/rpc/error_details.js';
import { Status } from './gen/google/rpc/status.js';

/** What a client can act on besides the status code and message. */
export interface StatusDetails {
  /** Stable error code, e.g. DATA_VERSION_CONFLICT (empty if absent). */
  readonly reason: string;
  /** Support reference for unexpected errors (empty if absent). */
  readonly reference: string;
  /** Per-field problems for INVALID_ARGUMENT (and ALREADY_EXISTS on a field). */
  readonly violations: readonly { field: string; description: string; reason: string }[];
}

const EMPTY: StatusDetails = { reason: '', reference: '', violations: [] };

/** Decodes the details from an error's trailing metadata; tolerant of absent or bad bytes. */
export function readStatusDetails(metadata: Metadata | undefined): StatusDetails {
  const raw = metadata?.get('grpc-status-details-bin')[0];
  if (!raw || typeof raw === 'string') return EMPTY;
  try {
    const status = Status.decode(raw);
    let reason = '';
    let reference = '';
    const violations: { field: string; description: string; reason: string }[] = [];
    for (const detail of status.details) {
      if (detail.typeUrl.endsWith('/google.rpc.ErrorInfo')) {
        const info = ErrorInfo.decode(detail.value);
        reason = info.reason;
        reference = info.metadata['reference'] ?? '';
      } else if (detail.typeUrl.endsWith('/google.rpc.BadRequest')) {
        violations.push(...BadRequest.decode(detail.value).fieldViolations);
      }
    }
    return { reason, reference, violations };
  } catch {
    return EMPTY;
  }
}
