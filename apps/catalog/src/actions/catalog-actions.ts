/**
 * The catalogue's server actions, each belonging to the page whose form posts it. Each
 * validates its input by schema, calls the data service, revalidates by the tags the data
 * service returned, and maps refusals to field messages.
 */
import { defineAction, type ActionContext, type ActionResult } from '@strata/web/server';
import type { AppServices } from '../services.js';
import { WriteRefused } from '../gateway/catalog-gateway.js';
import { createItemInput, deleteItemInput, updateItemInput } from './item-input.js';

const MODULE = 'catalog/items';

async function refusalsAsFieldErrors<T>(
  work: () => Promise<ActionResult<T>>,
): Promise<ActionResult<T>> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof WriteRefused)) throw error;
    const fieldErrors: Record<string, readonly string[]> = { ...error.fieldErrors };
    // The data service names fields by their wire names; the form names price in dollars.
    if (fieldErrors['price_cents']) fieldErrors['price'] = fieldErrors['price_cents'];
    if (fieldErrors['category_id']) fieldErrors['categoryId'] = fieldErrors['category_id'];
    if (Object.keys(fieldErrors).length === 0) fieldErrors['_form'] = [error.message];
    return { ok: false, fieldErrors };
  }
}

export const createItem = defineAction({
  module: MODULE,
  name: 'createItem',
  segment: 'item-new',
  input: createItemInput,
  handler: (input, { services, revalidate, redirect }: ActionContext<AppServices>) =>
    refusalsAsFieldErrors(async () => {
      const result = await services.catalog.createItem({
        title: input.title,
        priceCents: input.price,
        categoryId: input.categoryId,
        description: input.description,
      });
      revalidate(...result.tags);
      redirect(`/items/${result.item?.id}`);
      return { ok: true, result: { id: result.item?.id ?? 0 } };
    }),
});

export const updateItem = defineAction({
  module: MODULE,
  name: 'updateItem',
  segment: 'item-detail',
  input: updateItemInput,
  handler: (input, { services, revalidate }: ActionContext<AppServices>) =>
    refusalsAsFieldErrors(async () => {
      const result = await services.catalog.updateItem(
        input.id,
        input.version,
        {
          title: input.title,
          priceCents: input.price,
          categoryId: input.categoryId,
          description: input.description,
        },
        ['title', 'price_cents', 'category_id', 'description'],
      );
      revalidate(...result.tags);
      return { ok: true, result: { version: result.item?.version ?? 0 } };
    }),
});

export const deleteItem = defineAction({
  module: MODULE,
  name: 'deleteItem',
  segment: 'item-detail',
  input: deleteItemInput,
  handler: (input, { services, revalidate, redirect }: ActionContext<AppServices>) =>
    refusalsAsFieldErrors(async () => {
      const result = await services.catalog.deleteItem(input.id, input.version);
      revalidate(...result.tags);
      redirect('/items');
      return { ok: true, result: { deleted: input.id } };
    }),
});

/** Every action of the app, by the name forms refer to. */
export const catalogActions = { createItem, updateItem, deleteItem };
