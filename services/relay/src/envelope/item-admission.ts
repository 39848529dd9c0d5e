/**
 * How the envelope reader learns each item's byte budget: asked once the item's header line is
 * read, told the payload's size once it is complete (so budgets shared across items, such as
 * all attachments together, can be kept). The budgets themselves live in `limits/`. Pure.
 */
import type { JsonObject } from './envelope.js';

/** The largest payload one item may have, and how a refusal names that limit. */
export interface PayloadBudget {
  readonly maxBytes: number;
  readonly name: string;
}

/** Gives each item its budget once its header is known; a string refuses the item outright. */
export interface ItemAdmission {
  start(type: string, header: JsonObject): PayloadBudget | string;
  end(type: string, size: number): void;
}

/** No budget beyond the envelope's own bounds. */
export const UNBOUNDED_ADMISSION: ItemAdmission = {
  start: () => ({ maxBytes: Number.MAX_SAFE_INTEGER, name: 'no limit' }),
  end: () => undefined,
};
