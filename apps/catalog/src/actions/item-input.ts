/**
 * Schemas for the item forms: what a browser may send, as strings from a form or values from
 * JSON. Prices are typed in dollars and stored in cents.
 */
import { z } from 'zod';

const PRICE = /^\d{1,7}(?:\.\d{1,2})?$/;

/** "12.5" → 1250; anything else is a validation message. */
export const priceInDollars = z
  .union([z.string(), z.number()])
  .transform((value) => String(value).trim())
  .refine((value) => PRICE.test(value), 'Enter a price like 12.99')
  .transform((value) => Math.round(Number(value) * 100));

const positiveInt = (label: string) =>
  z.union([z.string(), z.number()]).transform((value, context) => {
    const number = Number(value);
    if (!Number.isSafeInteger(number) || number < 1) {
      context.addIssue({ code: 'custom', message: `${label} is missing` });
      return z.NEVER;
    }
    return number;
  });

/** The editable fields. */
export const itemFields = z.object({
  title: z
    .string()
    .trim()
    .min(1, 'Title is required')
    .max(200, 'Title must be at most 200 characters'),
  price: priceInDollars,
  categoryId: z.string().min(1, 'Choose a category'),
  description: z.string().max(5000, 'Description must be at most 5000 characters').default(''),
});

/** CreateItem's input. */
export const createItemInput = itemFields;
/** UpdateItem's input: the fields plus which item and version. */
export const updateItemInput = itemFields.extend({
  id: positiveInt('Item id'),
  version: positiveInt('Version'),
});
/** DeleteItem's input. */
export const deleteItemInput = z.object({
  id: positiveInt('Item id'),
  version: positiveInt('Version'),
});
