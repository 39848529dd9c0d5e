/**
 * /api: the catalogue as a small JSON REST API. Schema-validated input, proper status codes
 * (201 + Location on create, 204 on delete, 400 for a query the data service's rules refuse,
 * 404, 409 on a version conflict, 422 on invalid input, 415 for non-JSON bodies), and never a
 * rendered page.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { CatalogGateway } from '../gateway/catalog-gateway.js';
import { WriteRefused } from '../gateway/catalog-gateway.js';
import { LIST_FILTER_RULES } from '../gateway/list-filters.js';
import { ReadRefused } from '../gateway/read-refused.js';
import { apiError, zodFields } from './api-errors.js';

/** What the API needs. */
export interface CatalogApiOptions {
  /** The catalogue gateway for one request (its trace and request id go with the data calls). */
  readonly catalogFor: (request: FastifyRequest) => CatalogGateway;
  readonly revalidate: (tags: readonly string[]) => Promise<void>;
}

const id = z.coerce.number().int().positive();
const listQuery = z.object({
  category: LIST_FILTER_RULES.categoryId.default(''),
  q: LIST_FILTER_RULES.query.default(''),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
  pageToken: LIST_FILTER_RULES.pageToken.default(''),
});
// The data service's field names in a refused read, as the API's query parameters.
const QUERY_NAMES: Record<string, string> = {
  category_id: 'category',
  query: 'q',
  page_size: 'pageSize',
  page_token: 'pageToken',
};
const createBody = z.strictObject({
  title: z.string(),
  priceCents: z.number().int(),
  categoryId: z.string(),
  description: z.string().default(''),
});
const updateBody = z.strictObject({
  expectedVersion: z.number().int().positive(),
  title: z.string().optional(),
  priceCents: z.number().int().optional(),
  categoryId: z.string().optional(),
  description: z.string().optional(),
});
const WIRE_NAMES = {
  title: 'title',
  priceCents: 'price_cents',
  categoryId: 'category_id',
  description: 'description',
} as const;

/** Registers the API (mount with prefix /api). */
export async function catalogApi(app: FastifyInstance, options: CatalogApiOptions): Promise<void> {
  const catalog = options.catalogFor;

  // JSON only: without this, Fastify would hand text/plain bodies to the handlers as strings.
  app.removeContentTypeParser('text/plain');
  // Claim every path under /api, so an unknown one is a JSON 404 and never a rendered page.
  const notFound = (
    request: { method: string; url: string },
    reply: Parameters<typeof apiError>[0],
  ) => apiError(reply, 404, 'NOT_FOUND', `No API route ${request.method} ${request.url}.`);
  app.setNotFoundHandler(notFound);
  app.all('/*', notFound);
  app.setErrorHandler((error: { code?: string; statusCode?: number }, _request, reply) => {
    if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE')
      return apiError(reply, 415, 'UNSUPPORTED_MEDIA_TYPE', 'Send application/json.');
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE')
      return apiError(reply, 413, 'BODY_TOO_LARGE', 'The body is larger than 1 MB.');
    if (error instanceof WriteRefused) return refusal(reply, error);
    if (error instanceof ReadRefused)
      return apiError(reply, 400, 'INVALID_QUERY', 'Invalid query parameters.', queryFields(error));
    if (error.statusCode === 400)
      return apiError(reply, 400, 'BAD_BODY', 'The body is not valid JSON.');
    throw error;
  });

  app.get('/categories', async (request) => ({
    categories: (await catalog(request).listCategories()).categories,
  }));

  app.get('/items', async (request, reply) => {
    const query = listQuery.safeParse(request.query);
    if (!query.success)
      return apiError(
        reply,
        400,
        'INVALID_QUERY',
        'Invalid query parameters.',
        zodFields(query.error),
      );
    const page = await catalog(request).listItems({
      categoryId: query.data.category,
      query: query.data.q,
      pageSize: query.data.pageSize,
      pageToken: query.data.pageToken,
    });
    return { items: page.items, nextPageToken: page.nextPageToken };
  });

  app.get('/items/:id', async (request, reply) => {
    const itemId = id.safeParse((request.params as { id: string }).id);
    if (!itemId.success) return apiError(reply, 404, 'NOT_FOUND', 'No such item.');
    const found = await catalog(request).getItem(itemId.data);
    return found
      ? found.item
      : apiError(reply, 404, 'NOT_FOUND', `Item ${itemId.data} does not exist.`);
  });

  app.post('/items', async (request, reply) => {
    const body = createBody.safeParse(request.body);
    if (!body.success)
      return apiError(reply, 422, 'INVALID_ITEM', 'The item is not valid.', zodFields(body.error));
    const result = await catalog(request).createItem(body.data);
    await options.revalidate(result.tags);
    return reply.code(201).header('location', `/api/items/${result.item?.id}`).send(result.item);
  });

  app.patch('/items/:id', async (request, reply) => {
    const itemId = id.safeParse((request.params as { id: string }).id);
    if (!itemId.success) return apiError(reply, 404, 'NOT_FOUND', 'No such item.');
    const body = updateBody.safeParse(request.body);
    if (!body.success)
      return apiError(
        reply,
        422,
        'INVALID_ITEM',
        'The change is not valid.',
        zodFields(body.error),
      );
    const { expectedVersion, ...fields } = body.data;
    const mask = Object.keys(fields).map((name) => WIRE_NAMES[name as keyof typeof WIRE_NAMES]);
    if (mask.length === 0)
      return apiError(reply, 422, 'INVALID_ITEM', 'Name at least one field to change.');
    const result = await catalog(request).updateItem(itemId.data, expectedVersion, fields, mask);
    await options.revalidate(result.tags);
    return result.item;
  });

  app.delete('/items/:id', async (request, reply) => {
    const itemId = id.safeParse((request.params as { id: string }).id);
    if (!itemId.success) return apiError(reply, 404, 'NOT_FOUND', 'No such item.');
    const version = id.safeParse((request.query as { version?: string }).version);
    if (!version.success)
      return apiError(
        reply,
        428,
        'VERSION_REQUIRED',
        'Pass ?version=<the version you read> to delete.',
      );
    const result = await catalog(request).deleteItem(itemId.data, version.data);
    await options.revalidate(result.tags);
    return reply.code(204).send();
  });
}

function queryFields(error: ReadRefused): Record<string, readonly string[]> {
  return Object.fromEntries(
    Object.entries(error.fieldErrors).map(([field, messages]) => [
      QUERY_NAMES[field] ?? field,
      messages,
    ]),
  );
}

function refusal(reply: Parameters<typeof apiError>[0], error: WriteRefused) {
  switch (error.kind) {
    case 'invalid':
      return apiError(reply, 422, 'INVALID_ITEM', error.message, error.fieldErrors);
    case 'exists':
      return apiError(reply, 409, 'TITLE_TAKEN', error.message, error.fieldErrors);
    case 'conflict':
      return apiError(reply, 409, 'VERSION_CONFLICT', error.message);
    case 'not-found':
      return apiError(reply, 404, 'NOT_FOUND', error.message);
  }
}
