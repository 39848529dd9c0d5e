/**
 * grpc-js handlers for CatalogService: each one checks the deadline, calls the catalogue, and
 * maps failures through toGrpcError. No business logic here.
 */
import type { handleUnaryCall, sendUnaryData, ServerUnaryCall } from '@grpc/grpc-js';
import type { CatalogServiceServer } from '@strata/proto';
import type { Logger } from 'pino';
import type { CallContext, Catalog } from '../catalog.js';
import { DataError } from '../errors.js';
import type { ChangeFeed } from '../changes/change-feed.js';
import { remainingMs } from './deadline.js';
import { toGrpcError } from './to-grpc-error.js';
import { createWatchChangesHandler } from './watch-changes.js';

/** What the handlers need. */
export interface CatalogHandlerDeps {
  readonly catalog: Catalog;
  readonly feed: ChangeFeed;
  readonly logger: Logger;
}

/** Builds the CatalogService implementation. */
export function createCatalogHandlers(deps: CatalogHandlerDeps): CatalogServiceServer {
  const { catalog, logger } = deps;

  function unary<Req, Res>(
    method: string,
    work: (request: Req, context: CallContext) => Promise<Res>,
  ): handleUnaryCall<Req, Res> {
    return (call: ServerUnaryCall<Req, Res>, callback: sendUnaryData<Res>) => {
      const started = performance.now();
      const left = remainingMs(call);
      const finish = (error: unknown, response?: Res) => {
        const ms = Math.round((performance.now() - started) * 10) / 10;
        if (error === null) {
          logger.debug({ method, ms }, 'call ok');
          callback(null, response);
          return;
        }
        const { serviceError, reference } = toGrpcError(error);
        if (reference)
          logger.error({ method, ms, reference, err: error }, 'call failed unexpectedly');
        else
          logger.info(
            { method, ms, code: serviceError.code, message: serviceError.details },
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
      work(call.request, context).then(
        (response) => finish(null, response),
        (error: unknown) => finish(error),
      );
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
