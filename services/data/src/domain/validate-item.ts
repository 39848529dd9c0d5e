/**
 * Field rules for catalogue requests. Each function returns every violation it finds (never
 * just the first), so a client can show all messages at once.
 */
import type { FieldViolation } from '../errors.js';
import { resolveItemView, type ListedFields } from './item-view.js';

/** Limits documented in proto/strata/catalog/v1/catalog.proto. */
export const ITEM_LIMITS = {
  titleMax: 200,
  descriptionMax: 5000,
  priceMax: 100_000_000,
  queryMax: 200,
  pageSizeDefault: 20,
  pageSizeMax: 100,
} as const;

/** The item fields a client may set; also the valid UpdateItem mask paths. */
export const MUTABLE_ITEM_FIELDS = ['title', 'price_cents', 'category_id', 'description'] as const;
/** One of MUTABLE_ITEM_FIELDS. */
export type MutableItemField = (typeof MUTABLE_ITEM_FIELDS)[number];

/** The values CreateItem takes and UpdateItem may change. */
export interface ItemFields {
  readonly title: string;
  readonly priceCents: number;
  readonly categoryId: string;
  readonly description: string;
}

const CATEGORY_ID = /^[a-z0-9][a-z0-9-]{0,62}$/;
// C0 controls other than tab and newline, DEL, and C1 controls never belong in a title.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;
/** PostgreSQL text cannot hold U+0000: refused as the client's mistake before it reaches SQL. */
const NUL = '\u0000';

function violation(field: string, reason: string, description: string): FieldViolation {
  return { field, reason, description };
}

/** Checks the given item fields (all of them, or those named in `only`). */
export function validateItemFields(
  fields: ItemFields,
  only: readonly MutableItemField[] = MUTABLE_ITEM_FIELDS,
): FieldViolation[] {
  const out: FieldViolation[] = [];
  if (only.includes('title')) {
    const title = fields.title.trim();
    if (title.length === 0) out.push(violation('title', 'REQUIRED', 'Title is required.'));
    else if (title.length > ITEM_LIMITS.titleMax)
      out.push(
        violation('title', 'TOO_LONG', `Title must be at most ${ITEM_LIMITS.titleMax} characters.`),
      );
    else if (CONTROL.test(title))
      out.push(
        violation('title', 'INVALID_CHARACTERS', 'Title must not contain control characters.'),
      );
  }
  if (only.includes('price_cents')) {
    const price = fields.priceCents;
    if (!Number.isSafeInteger(price) || price < 0 || price > ITEM_LIMITS.priceMax)
      out.push(
        violation(
          'price_cents',
          'OUT_OF_RANGE',
          `Price must be 0 to ${ITEM_LIMITS.priceMax} cents.`,
        ),
      );
  }
  if (only.includes('category_id')) {
    if (fields.categoryId === '')
      out.push(violation('category_id', 'REQUIRED', 'Category is required.'));
    else if (!CATEGORY_ID.test(fields.categoryId))
      out.push(violation('category_id', 'INVALID_FORMAT', 'Category id is not well-formed.'));
  }
  if (only.includes('description') && fields.description.length > ITEM_LIMITS.descriptionMax)
    out.push(
      violation(
        'description',
        'TOO_LONG',
        `Description must be at most ${ITEM_LIMITS.descriptionMax} characters.`,
      ),
    );
  else if (only.includes('description') && fields.description.includes(NUL))
    out.push(
      violation(
        'description',
        'INVALID_CHARACTERS',
        'Description must not contain NUL characters.',
      ),
    );
  return out;
}

/** Checks a positive id field (`id`, `item.id`). */
export function validateId(field: string, id: number): FieldViolation[] {
  return Number.isSafeInteger(id) && id > 0
    ? []
    : [violation(field, 'REQUIRED', 'Must be a positive item id.')];
}

/** Checks an expected_version (required for optimistic concurrency). */
export function validateExpectedVersion(version: number): FieldViolation[] {
  return Number.isSafeInteger(version) && version > 0
    ? []
    : [violation('expected_version', 'REQUIRED', 'The version you last read is required.')];
}

/** Resolves an UpdateItem mask: empty means every mutable field; unknown paths are violations. */
export function resolveUpdateMask(paths: readonly string[]): {
  fields: MutableItemField[];
  violations: FieldViolation[];
} {
  if (paths.length === 0) return { fields: [...MUTABLE_ITEM_FIELDS], violations: [] };
  const known = new Set<string>(MUTABLE_ITEM_FIELDS);
  const unknown = paths.filter((path) => !known.has(path));
  if (unknown.length > 0)
    return {
      fields: [],
      violations: [
        violation(
          'update_mask',
          'UNKNOWN_FIELD',
          `Cannot update ${unknown.join(', ')}; allowed: ${MUTABLE_ITEM_FIELDS.join(', ')}.`,
        ),
      ],
    };
  return { fields: [...new Set(paths)] as MutableItemField[], violations: [] };
}

/**
 * Checks ListItems filters and view; returns the effective page size (0 → default, capped at
 * max) and which fields to list.
 */
export function validateListRequest(request: {
  categoryId: string;
  query: string;
  pageSize: number;
  view: number;
}): { pageSize: number; fields: ListedFields; violations: FieldViolation[] } {
  const out: FieldViolation[] = [];
  if (request.categoryId !== '' && !CATEGORY_ID.test(request.categoryId))
    out.push(violation('category_id', 'INVALID_FORMAT', 'Category id is not well-formed.'));
  if (request.query.length > ITEM_LIMITS.queryMax)
    out.push(
      violation('query', 'TOO_LONG', `Query must be at most ${ITEM_LIMITS.queryMax} characters.`),
    );
  else if (request.query.includes(NUL))
    out.push(violation('query', 'INVALID_CHARACTERS', 'Query must not contain NUL characters.'));
  if (request.pageSize < 0)
    out.push(violation('page_size', 'OUT_OF_RANGE', 'Page size must not be negative.'));
  const { fields, violations: viewViolations } = resolveItemView(request.view);
  out.push(...viewViolations);
  const requested = request.pageSize === 0 ? ITEM_LIMITS.pageSizeDefault : request.pageSize;
  return {
    pageSize: Math.min(Math.max(requested, 1), ITEM_LIMITS.pageSizeMax),
    fields,
    violations: out,
  };
}
