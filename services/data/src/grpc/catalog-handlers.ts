/**
 * grpc-js handlers for CatalogService: each one checks the deadline, calls the catalogue, and
 * maps failures through toGrpcError. No business logic here.
 */
import type { handleUnaryCall, sendUnaryData, ServerUnaryCall } from '@grpc/grpc-js';
import { CATALOG_SERVICE_NAME, type CatalogServiceServer } from '@strata/proto';
import {
  DISABLED_TELEMETRY,
  traceHeadersFromMetadata,
  type NodeTelemetry,
} from '@strata/telemetry';
import type { Logger } from 'pino';
import type { CallContext, Catalog } from '../catalog.js';
import { DataError } from '../errors.js';
import type { ChangeFeed } from '../changes/change-feed.js';
import { remainingMs } from './deadline.js';
import { toGrpcError } from './to-grpc-error.js';
import { createWatchChangesHandler } from './watch-changes.js';

/** Metadata key of the request id a caller sends (the render service: the gateway's id). */
export const REQUEST_ID_METADATA = 'x-request-id';
// Ids as the gateway and the render service make them; anything else is not logged.
const REQUEST_ID = /^[0-9A-Za-z-]{1,64}$/;

/** The request id a caller sent, if it looks like one (else it is not logged). */
function requestIdOf(sent: unknown): string | undefined {
  return typeof sent === 'string' && REQUEST_ID.test(sent) ? sent : undefined;
}

/** What the handlers need. */
export interface CatalogHandlerDeps {
  readonly catalog: Catalog;
  readonly feed: ChangeFeed;
  readonly logger: Logger;
  /** Continues callers' traces and reports unexpected failures. */
  readonly telemetry?: NodeTelemetry;
}

/** Builds the CatalogService implementation. */
export function createCatalogHandlers(deps: CatalogHandlerDeps): CatalogServiceServer {
  const { catalog, logger } = deps;
  const telemetry = deps.telemetry ?? DISABLED_TELEMETRY;

  function unary<Req, Res>(
    method: string,
    work: (request: Req, context: CallContext) => Promise<Res>,
  ): handleUnaryCall<Req, Res> {
    return (call: ServerUnaryCall<Req, Res>, callback: sendUnaryData<Res>) => {
      const started = performance.now();
      const left = remainingMs(call);
      // The caller's request id on every line this call logs (`reqId`, as the render service's).
      const reqId = requestIdOf(call.metadata.get(REQUEST_ID_METADATA)[0]);
      const finish = (error: unknown, response?: Res) => {
        const ms = Math.round((performance.now() - started) * 10) / 10;
        if (error === null) {
          logger.debug({ method, ms, reqId }, 'call ok');
          callback(null, response);
          return;
        }
        const { serviceError, reference } = toGrpcError(error);
        if (reference) {
          logger.error({ method, ms, reqId, reference, err: error }, 'call failed unexpectedly');
          telemetry.captureError(error, { reference, method });
        } else
          logger.info(
            { method, ms, reqId, code: serviceError.code, message: serviceError.details },
            'call refused',
          );
        callback(serviceError, null);
      };
      if (left <= 0) {
        finish(
          new DataError('DATA_DEADLINE_EXCEEDED', 'The deadline expired before the call started.'),
        );
        return;
      }
      const context: CallContext = Number.isFinite(left) ? { timeoutMs: left } : {};
      const trace = traceHeadersFromMetadata((key) => call.metadata.get(key));
      // Answered inside the call's span, so a failure's report belongs to the caller's trace;
      // the rethrow marks the span failed and is swallowed below (the callback has the answer).
      telemetry
        .traceGrpcServerCall(`${CATALOG_SERVICE_NAME}/${method}`, trace, () =>
          work(call.request, context).then(
            (response) => finish(null, response),
            (error: unknown) => {
              finish(error);
              throw error;
            },
          ),
        )
        .catch(() => undefined);
    };
  }

  return {
    listCategories: unary('ListCategories', () => catalog.listCategories()),
    listItems: unary('ListItems', (request) => catalog.listItems(request)),
    getItem: unary('GetItem', (request) => catalog.getItem(request)),
    createItem: unary('CreateItem', (request, context) => catalog.createItem(request, context)),
    updateItem: unary('UpdateItem', (request, context) => catalog.updateItem(request, context)),
    deleteItem: unary('DeleteItem', (request, context) => catalog.deleteItem(request, context)),
    watchChanges: createWatchChangesHandler(deps.feed, logger),
  };
}
