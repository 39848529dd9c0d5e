/**
 * ListItems' `view` (AIP-157 partial responses): which Item fields a list returns.
 */
import { ItemView } from '@strata/proto';
import type { FieldViolation } from '../errors.js';

/** The Item fields a list answer carries: the four a list prints, or all of them. */
export type ListedFields = 'basic' | 'full';

/** Resolves a requested view: unspecified means full, unknown numbers are a violation. */
export function resolveItemView(view: number): {
  fields: ListedFields;
  violations: FieldViolation[];
} {
  // Unknown numbers arrive as they were sent (ts-proto does not map them to UNRECOGNIZED).
  if (view === ItemView.ITEM_VIEW_BASIC) return { fields: 'basic', violations: [] };
  if (view === ItemView.ITEM_VIEW_UNSPECIFIED || view === ItemView.ITEM_VIEW_FULL)
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
