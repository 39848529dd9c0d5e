/**
 * The catalogue as loaders and actions see it, on the catalogue client (@strata/catalog-client,
 * which owns deadlines, retries, tracing, the transport and what a gRPC status means): each
 * request's trace id and request id in the metadata, and the client's CatalogErrors turned into
 * values the app can act on (null for not found, field violations for invalid input, a
 * conflict). List filters are checked against the data service's rules before the call; a read
 * refused as invalid (here or there) is a ReadRefused, the client's mistake.
 */
import { CatalogError, type CatalogClient } from '@strata/catalog-client';
import {
  ItemView,
  ListItemsRequest,
  UpdateItemRequest,
  type Category,
  type CreateItemRequest,
  type Item,
} from '@strata/proto';
import { listFilterErrors } from './list-filters.js';
import { ReadRefused } from './read-refused.js';

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

/** Turns the client's answers and refusals into what loaders and actions act on. */
export function createCatalogGateway(
  client: CatalogClient,
  request: {
    traceId: string;
    requestId?: string | undefined;
    tracestate?: string | undefined;
    signal?: AbortSignal;
  },
): CatalogGateway {
  const metadata: Record<string, string> = { 'strata-trace-id': request.traceId };
  if (request.requestId) metadata['x-request-id'] = request.requestId; // the data service logs it
  if (request.tracestate) metadata['tracestate'] = request.tracestate;
  const context = { metadata, signal: request.signal };
  const read = <Res>(pending: Promise<Res>) =>
    pending.catch((error: unknown) => {
      if (!(error instanceof CatalogError) || error.kind !== 'invalid') throw error;
      throw new ReadRefused(error.message, fieldErrorsOf(error));
    });

  return {
    listCategories: () => read(client.listCategories({}, context)),
    listItems: ({ view, ...query }: ItemListQuery) => {
      const invalid = listFilterErrors(query);
      if (invalid) return Promise.reject(new ReadRefused('The list query is not valid.', invalid));
      return read(
        client.listItems(
          ListItemsRequest.fromPartial({ ...query, ...(view && { view: ITEM_VIEWS[view] }) }),
          context,
        ),
      );
    },
    async getItem(id) {
      try {
        const { item, tags } = await read(client.getItem({ id }, context));
        return item ? { item, tags } : null;
      } catch (error) {
        if (error instanceof CatalogError && error.kind === 'not-found') return null;
        throw error;
      }
    },
    createItem: (fields) => write(client.createItem(fields, context)),
    updateItem: (id, expectedVersion, fields, mask) =>
      write(
        client.updateItem(
          UpdateItemRequest.fromPartial({
            item: { ...fields, id },
            updateMask: [...mask],
            expectedVersion,
          }),
          context,
        ),
      ),
    deleteItem: (id, expectedVersion) => write(client.deleteItem({ id, expectedVersion }, context)),
  };
}

async function write(
  pending: Promise<{ item?: Item | undefined; tags: string[] }>,
): Promise<WriteResult> {
  try {
    const { item, tags } = await pending;
    return item ? { item, tags } : { tags };
  } catch (error) {
    throw error instanceof CatalogError ? refusal(error) : error;
  }
}

/** The field violations of a refusal, by field name (an `item.` prefix dropped). */
function fieldErrorsOf(error: CatalogError): Record<string, readonly string[]> {
  const fieldErrors: Record<string, readonly string[]> = {};
  for (const [wire, messages] of Object.entries(error.fieldErrors)) {
    const field = wire.replace(/^item\./, '');
    fieldErrors[field] = [...(fieldErrors[field] ?? []), ...messages];
  }
  return fieldErrors;
}

function refusal(error: CatalogError): unknown {
  switch (error.kind) {
    case 'invalid':
    case 'exists':
      return new WriteRefused(error.kind, error.message, fieldErrorsOf(error));
    case 'conflict':
      return new WriteRefused('conflict', error.message, {
        _form: ['Someone changed this item since you opened it. Reload and try again.'],
      });
    case 'not-found':
      return new WriteRefused('not-found', error.message, {
        _form: ['This item no longer exists.'],
      });
    default:
      return error;
  }
}
