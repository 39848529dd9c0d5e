/**
 * ListItems' `view` (AIP-157 partial responses): which Item fields a list returns.
 */
import type { FieldViolation } from '../errors.js';

/** The Item fields a list answer carries: the four a list prints, or all of them. */
export type ListedFields = 'basic' | 'full';

// strata.catalog.v1.ItemView numbers (the wire values; unknown numbers arrive as they are).
const ITEM_VIEW_UNSPECIFIED = 0;
const ITEM_VIEW_BASIC = 1;
const ITEM_VIEW_FULL = 2;

/** Resolves a requested view: unspecified means full, unknown numbers are a violation. */
export function resolveItemView(view: number): {
  fields: ListedFields;
  violations: FieldViolation[];
} {
  if (view === ITEM_VIEW_BASIC) return { fields: 'basic', violations: [] };
  if (view === ITEM_VIEW_UNSPECIFIED || view === ITEM_VIEW_FULL)
    return { fields: 'full', violations: [] };
  return {
    fields: 'full',
    violations: [
      {
        field: 'view',
        reason: 'UNKNOWN_VALUE',
        description: `Unknown view ${view}; use ITEM_VIEW_BASIC (1) or ITEM_VIEW_FULL (2), or leave it unset for full items.`,
      },
    ],
  };
}
