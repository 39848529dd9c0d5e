/**
 * The catalogue contract's client: every CatalogService method as a promise (the change feed as
 * a stream), with the one policy for deadlines, read retries, tracing (call-tracing.ts) and
 * errors: a failed unary call rejects with a CatalogError (catalog-error.ts), never a gRPC
 * status. Requests use the generated method table (@strata/proto): ts-proto's codecs, except
 * for ListItems and GetItem, whose requests get the generated one-pass encoders and whose
 * answers the generated fast decoders.
 */
import {
  CATALOG_SERVICE_NAME,
  catalogServiceMethods,
  type CreateItemRequest,
  type CreateItemResponse,
  type DeleteItemRequest,
  type DeleteItemResponse,
  type GetItemRequest,
  type GetItemResponse,
  type ListCategoriesRequest,
  type ListCategoriesResponse,
  type ListItemsRequest,
  type ListItemsResponse,
  type UpdateItemRequest,
  type UpdateItemResponse,
  type WatchChangesRequest,
  type WatchChangesResponse,
} from '@strata/proto';
import {
  READ_RETRY,
  withReadRetry,
  type GrpcTransport,
  type RetryPolicy,
  type ServerStreamCall,
} from '@strata/grpc-transport';
import type { Registry } from 'prom-client';
import { callTracer } from './call-tracing.js';
import { catalogErrorOf } from './catalog-error.js';

/** The gRPC status stops at the client: callers get a CatalogError. */
function rejectAsCatalogError(error: unknown): never {
  throw catalogErrorOf(error);
}

/** What one call carries besides its request. */
export interface CallContext {
  /** Extra metadata (lower-case ASCII names and values), such as a request's trace id. */
  readonly metadata?: Readonly<Record<string, string>>;
  readonly signal?: AbortSignal | undefined;
}

export interface CatalogClientOptions {
  /** Deadline of one attempt (default 2 s). */
  readonly deadlineMs?: number;
  /** How reads are retried; writes never are (they may have happened). */
  readonly retry?: RetryPolicy;
  readonly onRetry?: (method: string, error: unknown) => void;
  /** Where the client counts its calls (`grpc_client_handling_seconds`; absent: not counted). */
  readonly metrics?: Registry;
}

export interface CatalogClient {
  listCategories(
    request: ListCategoriesRequest,
    context?: CallContext,
  ): Promise<ListCategoriesResponse>;
  listItems(request: ListItemsRequest, context?: CallContext): Promise<ListItemsResponse>;
  getItem(request: GetItemRequest, context?: CallContext): Promise<GetItemResponse>;
  createItem(request: CreateItemRequest, context?: CallContext): Promise<CreateItemResponse>;
  updateItem(request: UpdateItemRequest, context?: CallContext): Promise<UpdateItemResponse>;
  deleteItem(request: DeleteItemRequest, context?: CallContext): Promise<DeleteItemResponse>;
  /** Every committed change after `afterSequence` (see the .proto), until cancelled. */
  watchChanges(
    request: WatchChangesRequest,
    context?: Pick<CallContext, 'metadata'>,
  ): ServerStreamCall<WatchChangesResponse>;
  /** The replica addresses calls are spread over now. */
  addresses(): string[];
  close(): void;
}

interface Method<Req, Res> {
  readonly path: string;
  readonly requestSerialize: (request: Req) => Buffer;
  readonly responseDeserialize: (bytes: Buffer) => Res;
}

const service = catalogServiceMethods;

export function createCatalogClient(
  transport: GrpcTransport,
  options: CatalogClientOptions = {},
): CatalogClient {
  const deadlineMs = options.deadlineMs ?? 2000;
  const tracer = callTracer(options.metrics);

  function attempt<Req, Res>(
    name: string,
    method: Method<Req, Res>,
    bytes: Buffer,
    context: CallContext,
  ) {
    return tracer(`${CATALOG_SERVICE_NAME}/${name}`, async (trace) =>
      method.responseDeserialize(
        await transport.unary(method.path, bytes, {
          deadlineMs,
          metadata: { ...context.metadata, ...trace },
          signal: context.signal,
        }),
      ),
    );
  }
  function read<Req, Res>(
    name: string,
    method: Method<Req, Res>,
    request: Req,
    context: CallContext = {},
  ) {
    const bytes = method.requestSerialize(request);
    return withReadRetry(() => attempt(name, method, bytes, context), {
      policy: options.retry ?? READ_RETRY,
      ...(context.signal && { signal: context.signal }),
      onRetry: (error) => options.onRetry?.(name, error),
    }).catch(rejectAsCatalogError);
  }
  function write<Req, Res>(
    name: string,
    method: Method<Req, Res>,
    request: Req,
    context: CallContext = {},
  ) {
    return attempt(name, method, method.requestSerialize(request), context).catch(
      rejectAsCatalogError,
    );
  }

  return {
    listCategories: (request, context) =>
      read('ListCategories', service.listCategories, request, context),
    listItems: (request, context) => read('ListItems', service.listItems, request, context),
    getItem: (request, context) => read('GetItem', service.getItem, request, context),
    createItem: (request, context) => write('CreateItem', service.createItem, request, context),
    updateItem: (request, context) => write('UpdateItem', service.updateItem, request, context),
    deleteItem: (request, context) => write('DeleteItem', service.deleteItem, request, context),
    watchChanges: (request, context) =>
      transport.serverStream(
        service.watchChanges.path,
        service.watchChanges.requestSerialize(request),
        service.watchChanges.responseDeserialize,
        context?.metadata,
      ),
    addresses: () => transport.addresses(),
    close: () => transport.close(),
  };
}
