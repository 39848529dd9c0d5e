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

/** A method as the client calls it: its name, the span and metric name, and its codecs. */
interface ClientMethod<Req, Res> {
  readonly name: string;
  /** Service/Method, made once here rather than on every call. */
  readonly tracedName: string;
  readonly method: Method<Req, Res>;
}

function clientMethod<Req, Res>(name: string, method: Method<Req, Res>): ClientMethod<Req, Res> {
  return { name, tracedName: `${CATALOG_SERVICE_NAME}/${name}`, method };
}

const service = catalogServiceMethods;
const methods = {
  listCategories: clientMethod('ListCategories', service.listCategories),
  listItems: clientMethod('ListItems', service.listItems),
  getItem: clientMethod('GetItem', service.getItem),
  createItem: clientMethod('CreateItem', service.createItem),
  updateItem: clientMethod('UpdateItem', service.updateItem),
  deleteItem: clientMethod('DeleteItem', service.deleteItem),
};

export function createCatalogClient(
  transport: GrpcTransport,
  options: CatalogClientOptions = {},
): CatalogClient {
  const deadlineMs = options.deadlineMs ?? 2000;
  const tracer = callTracer(options.metrics);

  function attempt<Req, Res>(
    { tracedName, method }: ClientMethod<Req, Res>,
    bytes: Buffer,
    context: CallContext,
  ) {
    return tracer(tracedName, async (trace) =>
      method.responseDeserialize(
        await transport.unary(method.path, bytes, {
          deadlineMs,
          metadata: { ...context.metadata, ...trace },
          signal: context.signal,
        }),
      ),
    );
  }
  function read<Req, Res>(called: ClientMethod<Req, Res>, request: Req, context: CallContext = {}) {
    const bytes = called.method.requestSerialize(request);
    return withReadRetry(() => attempt(called, bytes, context), {
      policy: options.retry ?? READ_RETRY,
      ...(context.signal && { signal: context.signal }),
      onRetry: (error) => options.onRetry?.(called.name, error),
    }).catch(rejectAsCatalogError);
  }
  function write<Req, Res>(
    called: ClientMethod<Req, Res>,
    request: Req,
    context: CallContext = {},
  ) {
    return attempt(called, called.method.requestSerialize(request), context).catch(
      rejectAsCatalogError,
    );
  }

  return {
    listCategories: (request, context) => read(methods.listCategories, request, context),
    listItems: (request, context) => read(methods.listItems, request, context),
    getItem: (request, context) => read(methods.getItem, request, context),
    createItem: (request, context) => write(methods.createItem, request, context),
    updateItem: (request, context) => write(methods.updateItem, request, context),
    deleteItem: (request, context) => write(methods.deleteItem, request, context),
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
