/**
 * The one module that talks to the data service: promise-returning calls with a deadline each,
 * read retries, trace-id propagation in metadata, and errors turned into values the app can
 * act on (null for not found, field violations for invalid input, a conflict for ABORTED).
 * List filters are checked against the data service's rules before the call; a read refused as
 * invalid (here or there) is a ReadRefused, the client's mistake.
 */
import * as grpc from '@grpc/grpc-js';
import {
  CATALOG_SERVICE_NAME,
  ItemView,
  ListItemsRequest,
  readStatusDetails,
  UpdateItemRequest,
  type Category,
  type CreateItemRequest,
  type Item,
} from '@strata/proto';
import {
  BAGGAGE_METADATA,
  SENTRY_TRACE_METADATA,
  type GrpcTraceHeaders,
  type NodeTelemetry,
} from '@strata/telemetry';
import type { CatalogChannel } from './catalog-channel.js';
import { listFilterErrors } from './list-filters.js';
import { ReadRefused } from './read-refused.js';
import { withReadRetry } from './read-retry.js';
import { FastReadCatalogService } from './wire/catalog-client.js';
import type { UnaryCallError } from './wire/unary-caller.js';

/** A write the data service refused, with what the user can fix. */
export class WriteRefused extends Error {
  readonly kind: 'invalid' | 'conflict' | 'not-found' | 'exists';
  readonly fieldErrors: Readonly<Record<string, readonly string[]>>;

  constructor(
    kind: WriteRefused['kind'],
    message: string,
    fieldErrors: Record<string, readonly string[]> = {},
  ) {
    super(message);
    this.name = 'WriteRefused';
    this.kind = kind;
    this.fieldErrors = fieldErrors;
  }
}

/**
 * Which item fields a list returns (ListItemsRequest.view): 'basic' is id, title, priceCents
 * and description only (a smaller, cheaper answer for lists that print just those); 'full', the
 * default, is every field.
 */
export type ItemListView = 'basic' | 'full';

/** The fields of a basic list's items (the others are at their defaults). */
export type BasicItem = Pick<Item, 'id' | 'title' | 'priceCents' | 'description'>;

/** A ListItems query; the view is a plain string so browser-bundled route code can name it. */
export type ItemListQuery = Partial<Omit<ListItemsRequest, 'view'>> & {
  readonly view?: ItemListView;
};

/** A page of items. */
export interface ItemPage<Listed = Item> {
  readonly items: Listed[];
  readonly nextPageToken: string;
  readonly tags: readonly string[];
}

const ITEM_VIEWS: Record<ItemListView, ItemView> = {
  basic: ItemView.ITEM_VIEW_BASIC,
  full: ItemView.ITEM_VIEW_FULL,
};

/** What a write returns. */
export interface WriteResult {
  readonly item?: Item;
  readonly tags: readonly string[];
}

/** The catalogue as the render service sees it. */
export interface CatalogGateway {
  listCategories(): Promise<{ categories: Category[]; tags: readonly string[] }>;
  /** A basic list's items are typed with only the fields it carries. */
  listItems(query: ItemListQuery & { readonly view: 'basic' }): Promise<ItemPage<BasicItem>>;
  listItems(query: ItemListQuery): Promise<ItemPage>;
  /** null when the item does not exist. */
  getItem(id: number): Promise<{ item: Item; tags: readonly string[] } | null>;
  createItem(fields: CreateItemRequest): Promise<WriteResult>;
  updateItem(
    id: number,
    expectedVersion: number,
    fields: Partial<Omit<Item, 'id'>>,
    mask: readonly string[],
  ): Promise<WriteResult>;
  deleteItem(id: number, expectedVersion: number): Promise<WriteResult>;
}

/** Connection settings. */
export interface GatewayOptions {
  readonly deadlineMs: number;
  readonly onRetry?: (method: string, error: unknown) => void;
  /** Records each call as a span and carries the trace to the data service. */
  readonly tracer?: Pick<NodeTelemetry, 'traceGrpcClientCall'>;
}

type Unary<Req, Res> = (
  request: Req,
  metadata: grpc.Metadata,
  options: Partial<grpc.CallOptions>,
  callback: (error: grpc.ServiceError | null, response: Res) => void,
) => grpc.ClientUnaryCall;

/** A read: its path and codecs, from the service definition (answers: the fast decoders). */
interface ReadMethod<Req, Res> {
  readonly path: string;
  readonly requestSerialize: (request: Req) => Uint8Array;
  readonly responseDeserialize: (bytes: Buffer) => Res;
}

/** A gateway bound to one request (its trace id and abort signal). */
export function createCatalogGateway(
  channel: CatalogChannel,
  options: GatewayOptions,
  request: { traceId: string; signal?: AbortSignal },
): CatalogGateway {
  const client = channel.rpc;
  function traced<Res>(name: string, send: (trace: GrpcTraceHeaders) => Promise<Res>) {
    return options.tracer
      ? options.tracer.traceGrpcClientCall(`${CATALOG_SERVICE_NAME}/${name}`, send)
      : send({});
  }
  function call<Req, Res>(name: string, method: Unary<Req, Res>, body: Req): Promise<Res> {
    return traced(name, (trace) => attempt(method, body, trace));
  }
  function attempt<Req, Res>(method: Unary<Req, Res>, body: Req, trace: GrpcTraceHeaders) {
    return new Promise<Res>((resolve, reject) => {
      const metadata = new grpc.Metadata();
      for (const [key, value] of Object.entries(headersOf(request.traceId, trace)))
        metadata.set(key, value);
      const pending = method.call(
        client,
        body,
        metadata,
        { deadline: Date.now() + options.deadlineMs },
        (error, response) => (error ? reject(error) : resolve(response)),
      );
      request.signal?.addEventListener('abort', () => pending.cancel(), { once: true });
    });
  }
  const read = <Req, Res>(name: string, method: ReadMethod<Req, Res>, body: Req) => {
    const message = method.requestSerialize(body);
    const once = () =>
      traced(name, async (trace) =>
        method.responseDeserialize(
          await channel.reads.call(method.path, message, {
            deadlineMs: options.deadlineMs,
            metadata: headersOf(request.traceId, trace),
            signal: request.signal,
          }),
        ),
      );
    return withReadRetry(once, {
      ...(request.signal && { signal: request.signal }),
      onRetry: (error) => options.onRetry?.(name, error),
    }).catch((error: unknown) => {
      const refused = error as UnaryCallError;
      if (refused.code !== grpc.status.INVALID_ARGUMENT) throw error;
      throw new ReadRefused(refused.details, fieldErrorsOf(refused.metadata));
    });
  };
  const reads = FastReadCatalogService;

  return {
    listCategories: () => read('ListCategories', reads.listCategories, {}),
    listItems: ({ view, ...query }: ItemListQuery) => {
      const invalid = listFilterErrors(query);
      if (invalid) return Promise.reject(new ReadRefused('The list query is not valid.', invalid));
      return read(
        'ListItems',
        reads.listItems,
        ListItemsRequest.fromPartial({ ...query, ...(view && { view: ITEM_VIEWS[view] }) }),
      );
    },
    async getItem(id) {
      try {
        const { item, tags } = await read('GetItem', reads.getItem, { id });
        return item ? { item, tags } : null;
      } catch (error) {
        if ((error as UnaryCallError).code === grpc.status.NOT_FOUND) return null;
        throw error;
      }
    },
    createItem: (fields) => write(call('CreateItem', client.createItem, fields)),
    updateItem: (id, expectedVersion, fields, mask) =>
      write(
        call(
          'UpdateItem',
          client.updateItem,
          UpdateItemRequest.fromPartial({
            item: { ...fields, id },
            updateMask: [...mask],
            expectedVersion,
          }),
        ),
      ),
    deleteItem: (id, expectedVersion) =>
      write(call('DeleteItem', client.deleteItem, { id, expectedVersion })),
  };
}

async function write(
  pending: Promise<{ item?: Item | undefined; tags: string[] }>,
): Promise<WriteResult> {
  try {
    const { item, tags } = await pending;
    return item ? { item, tags } : { tags };
  } catch (error) {
    throw refusal(error as grpc.ServiceError);
  }
}

/** The field violations of a refusal, by field name (an `item.` prefix dropped). */
function fieldErrorsOf(metadata: grpc.Metadata | undefined): Record<string, string[]> {
  const fieldErrors: Record<string, string[]> = {};
  for (const violation of readStatusDetails(metadata).violations)
    (fieldErrors[violation.field.replace(/^item\./, '')] ??= []).push(violation.description);
  return fieldErrors;
}

function refusal(error: grpc.ServiceError): unknown {
  const fieldErrors = fieldErrorsOf(error.metadata);
  switch (error.code) {
    case grpc.status.INVALID_ARGUMENT:
      return new WriteRefused('invalid', error.details, fieldErrors);
    case grpc.status.ALREADY_EXISTS:
      return new WriteRefused('exists', error.details, fieldErrors);
    case grpc.status.ABORTED:
      return new WriteRefused('conflict', error.details, {
        _form: ['Someone changed this item since you opened it. Reload and try again.'],
      });
    case grpc.status.NOT_FOUND:
      return new WriteRefused('not-found', error.details, {
        _form: ['This item no longer exists.'],
      });
    default:
      return error;
  }
}

/** The metadata every call carries: the request's trace id and the tracing headers. */
function headersOf(traceId: string, trace: GrpcTraceHeaders): Record<string, string> {
  const headers: Record<string, string> = { 'strata-trace-id': traceId };
  if (trace.sentryTrace) headers[SENTRY_TRACE_METADATA] = trace.sentryTrace;
  if (trace.baggage) headers[BAGGAGE_METADATA] = trace.baggage;
  return headers;
}
