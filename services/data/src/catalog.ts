/**
 * The catalogue's operations on wire messages, without gRPC: validation, page tokens and
 * storage. The gRPC handlers are a thin layer over this, and the benchmark calls it directly
 * as the in-process ceiling.
 */
import type {
  CreateItemRequest,
  CreateItemResponse,
  DeleteItemRequest,
  DeleteItemResponse,
  GetItemRequest,
  GetItemResponse,
  ListCategoriesResponse,
  ListItemsRequest,
  ListItemsResponse,
  UpdateItemRequest,
  UpdateItemResponse,
} from '@strata/proto';
import { CATEGORIES_TAG, itemListTags, itemTag } from './domain/cache-tags.js';
import { createPageTokens } from './domain/page-token.js';
import {
  resolveUpdateMask,
  validateExpectedVersion,
  validateId,
  validateItemFields,
  validateListRequest,
} from './domain/validate-item.js';
import { DataError, invalidArgument, type FieldViolation } from './errors.js';
import { getItem, listCategories, listItemPage } from './storage/catalog-reads.js';
import { createItem, deleteItem, updateItem } from './storage/catalog-writes.js';
import type { Database } from './storage/database.js';

/** Settings the catalogue needs. */
export interface CatalogOptions {
  readonly pageTokenSecret: string;
  readonly changeRetention: number;
}

/** Per-call context: how long the caller will wait. */
export interface CallContext {
  readonly timeoutMs?: number;
}

function throwIfInvalid(violations: readonly FieldViolation[]): void {
  if (violations.length > 0) throw invalidArgument(violations);
}

/** The catalogue operations. */
export type Catalog = ReturnType<typeof createCatalog>;

/** Builds the catalogue over a migrated database. */
export function createCatalog(db: Database, options: CatalogOptions) {
  const pageTokens = createPageTokens(options.pageTokenSecret);
  const writeOptions = (context: CallContext) => ({
    changeRetention: options.changeRetention,
    ...(context.timeoutMs !== undefined && { timeoutMs: context.timeoutMs }),
  });

  return {
    async listCategories(): Promise<ListCategoriesResponse> {
      return { categories: await listCategories(db), tags: [CATEGORIES_TAG] };
    },

    async listItems(request: ListItemsRequest): Promise<ListItemsResponse> {
      const filter = { categoryId: request.categoryId, query: request.query.trim() };
      const { pageSize, fields, violations } = validateListRequest({
        ...filter,
        pageSize: request.pageSize,
        view: request.view,
      });
      // The token binds the filters, not the view: any view lists the same items.
      let afterId = 0;
      if (request.pageToken !== '') {
        const cursor = pageTokens.decode(request.pageToken, filter);
        if (!cursor)
          violations.push({
            field: 'page_token',
            reason: 'INVALID',
            description:
              'Page token is invalid or belongs to a different query; start from the first page.',
          });
        else afterId = cursor.afterId;
      }
      throwIfInvalid(violations);
      const page = await listItemPage(db, { ...filter, afterId, pageSize, fields });
      const last = page.items.at(-1);
      return {
        items: page.items,
        nextPageToken: page.hasMore && last ? pageTokens.encode({ afterId: last.id }, filter) : '',
        tags: itemListTags(filter),
      };
    },

    async getItem(request: GetItemRequest): Promise<GetItemResponse> {
      throwIfInvalid(validateId('id', request.id));
      const item = await getItem(db, request.id);
      if (!item) throw new DataError('DATA_ITEM_NOT_FOUND', `Item ${request.id} does not exist.`);
      return { item, tags: [itemTag(item.id)] };
    },

    async createItem(
      request: CreateItemRequest,
      context: CallContext = {},
    ): Promise<CreateItemResponse> {
      throwIfInvalid(validateItemFields(request));
      const result = await createItem(db, request, writeOptions(context));
      return { item: result.item, tags: result.tags, changeSequence: result.changeSequence };
    },

    async updateItem(
      request: UpdateItemRequest,
      context: CallContext = {},
    ): Promise<UpdateItemResponse> {
      const fields = request.item ?? {
        id: 0,
        title: '',
        priceCents: 0,
        categoryId: '',
        description: '',
      };
      const { fields: mask, violations } = resolveUpdateMask(request.updateMask ?? []);
      throwIfInvalid([
        ...validateId('item.id', fields.id),
        ...validateExpectedVersion(request.expectedVersion),
        ...violations,
        ...validateItemFields(fields, mask).map((v) => ({ ...v, field: `item.${v.field}` })),
      ]);
      const result = await updateItem(
        db,
        { id: fields.id, expectedVersion: request.expectedVersion, fields, mask },
        writeOptions(context),
      );
      return { item: result.item, tags: result.tags, changeSequence: result.changeSequence };
    },

    async deleteItem(
      request: DeleteItemRequest,
      context: CallContext = {},
    ): Promise<DeleteItemResponse> {
      throwIfInvalid([
        ...validateId('id', request.id),
        ...validateExpectedVersion(request.expectedVersion),
      ]);
      const result = await deleteItem(db, request, writeOptions(context));
      return { tags: result.tags, changeSequence: result.changeSequence };
    },
  };
}
