/**
 * /api: the catalogue as a small JSON REST API, as web-standard handlers. Schema-validated input,
 * proper status codes (201 + Location on create, 204 on delete, 400 for a query the data
 * service's rules refuse, 404, 409 on a version conflict, 422 on invalid input, 415 for non-JSON
 * bodies), and never a rendered page.
 */
import type { AppHandler, AppHandlerContext } from '@strata/web/server';
import { z } from 'zod';
import type { CatalogGateway } from '../gateway/catalog-gateway.js';
import { WriteRefused } from '../gateway/catalog-gateway.js';
import { LIST_FILTER_RULES } from '../gateway/list-filters.js';
import { ReadRefused } from '../gateway/read-refused.js';
import { apiError, jsonBody, zodFields } from './api-errors.js';

/** What the API's handlers need of a request's services. */
interface ApiServices {
  readonly catalog: CatalogGateway;
}
type Context = AppHandlerContext<ApiServices>;

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

const JSON_ONLY = ['application/json'];

/** The API's routes. */
export const catalogApi: readonly AppHandler<ApiServices>[] = [
  { method: 'GET', path: '/api/categories', handle: answering(categories) },
  { method: 'GET', path: '/api/items', handle: answering(listItems) },
  { method: 'GET', path: '/api/items/:id', handle: answering(getItem) },
  { method: 'POST', path: '/api/items', accepts: JSON_ONLY, handle: answering(createItem) },
  { method: 'PATCH', path: '/api/items/:id', accepts: JSON_ONLY, handle: answering(updateItem) },
  { method: 'DELETE', path: '/api/items/:id', handle: answering(deleteItem) },
  // Every other path under /api is a JSON 404, never a rendered page.
  { method: '*', path: '/api', handle: async (request) => noRoute(request) },
  { method: '*', path: '/api/*', handle: async (request) => noRoute(request) },
];

function noRoute(request: Request): Response {
  const url = new URL(request.url);
  return apiError(404, 'NOT_FOUND', `No API route ${request.method} ${url.pathname}${url.search}.`);
}

/** Maps the gateway's refusals to their answers; anything else is the host's 500. */
function answering(
  handle: (request: Request, context: Context) => Promise<Response>,
): AppHandler<ApiServices>['handle'] {
  return async (request, context) => {
    try {
      return await handle(request, context);
    } catch (error) {
      if (error instanceof WriteRefused) return refusal(error);
      if (error instanceof ReadRefused)
        return apiError(400, 'INVALID_QUERY', 'Invalid query parameters.', queryFields(error));
      throw error;
    }
  };
}

async function categories(_request: Request, { services }: Context): Promise<Response> {
  return Response.json({ categories: (await services.catalog.listCategories()).categories });
}

async function listItems(request: Request, { services }: Context): Promise<Response> {
  const query = listQuery.safeParse(searchObject(new URL(request.url).searchParams));
  if (!query.success)
    return apiError(400, 'INVALID_QUERY', 'Invalid query parameters.', zodFields(query.error));
  const page = await services.catalog.listItems({
    categoryId: query.data.category,
    query: query.data.q,
    pageSize: query.data.pageSize,
    pageToken: query.data.pageToken,
  });
  return Response.json({ items: page.items, nextPageToken: page.nextPageToken });
}

async function getItem(_request: Request, { params, services }: Context): Promise<Response> {
  const itemId = id.safeParse(params['id']);
  if (!itemId.success) return apiError(404, 'NOT_FOUND', 'No such item.');
  const found = await services.catalog.getItem(itemId.data);
  return found
    ? Response.json(found.item)
    : apiError(404, 'NOT_FOUND', `Item ${itemId.data} does not exist.`);
}

async function createItem(request: Request, { services, revalidate }: Context): Promise<Response> {
  const json = await jsonBody(request);
  if (!json.ok) return json.refusal;
  const body = createBody.safeParse(json.value);
  if (!body.success)
    return apiError(422, 'INVALID_ITEM', 'The item is not valid.', zodFields(body.error));
  const result = await services.catalog.createItem(body.data);
  await revalidate(result.tags);
  return Response.json(result.item, {
    status: 201,
    headers: { location: `/api/items/${result.item?.id}` },
  });
}

async function updateItem(request: Request, context: Context): Promise<Response> {
  const itemId = id.safeParse(context.params['id']);
  if (!itemId.success) return apiError(404, 'NOT_FOUND', 'No such item.');
  const json = await jsonBody(request);
  if (!json.ok) return json.refusal;
  const body = updateBody.safeParse(json.value);
  if (!body.success)
    return apiError(422, 'INVALID_ITEM', 'The change is not valid.', zodFields(body.error));
  const { expectedVersion, ...fields } = body.data;
  const mask = Object.keys(fields).map((name) => WIRE_NAMES[name as keyof typeof WIRE_NAMES]);
  if (mask.length === 0) return apiError(422, 'INVALID_ITEM', 'Name at least one field to change.');
  const result = await context.services.catalog.updateItem(
    itemId.data,
    expectedVersion,
    fields,
    mask,
  );
  await context.revalidate(result.tags);
  return Response.json(result.item);
}

async function deleteItem(request: Request, context: Context): Promise<Response> {
  const itemId = id.safeParse(context.params['id']);
  if (!itemId.success) return apiError(404, 'NOT_FOUND', 'No such item.');
  const version = id.safeParse(new URL(request.url).searchParams.get('version') ?? undefined);
  if (!version.success)
    return apiError(428, 'VERSION_REQUIRED', 'Pass ?version=<the version you read> to delete.');
  const result = await context.services.catalog.deleteItem(itemId.data, version.data);
  await context.revalidate(result.tags);
  return new Response(null, { status: 204 });
}

/** The query as an object; a name given twice becomes a list (which the schema refuses). */
function searchObject(search: URLSearchParams): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {};
  for (const name of new Set(search.keys())) {
    const values = search.getAll(name);
    query[name] = values.length === 1 ? (values[0] ?? '') : values;
  }
  return query;
}

function queryFields(error: ReadRefused): Record<string, readonly string[]> {
  return Object.fromEntries(
    Object.entries(error.fieldErrors).map(([field, messages]) => [
      QUERY_NAMES[field] ?? field,
      messages,
    ]),
  );
}

function refusal(error: WriteRefused): Response {
  switch (error.kind) {
    case 'invalid':
      return apiError(422, 'INVALID_ITEM', error.message, error.fieldErrors);
    case 'exists':
      return apiError(409, 'TITLE_TAKEN', error.message, error.fieldErrors);
    case 'conflict':
      return apiError(409, 'VERSION_CONFLICT', error.message);
    case 'not-found':
      return apiError(404, 'NOT_FOUND', error.message);
  }
}
