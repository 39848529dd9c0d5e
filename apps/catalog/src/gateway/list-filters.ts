/**
 * The data service's rules for ListItems filters (docs/data-service.md, "Field rules"), checked
 * before the call: a bad filter from a URL is refused here without a round trip, and input the
 * data service would choke on rather than refuse (a NUL in the query) never reaches it. The
 * JSON API builds its query schema from the same rules. Pure.
 */
import { z } from 'zod';

const CATEGORY_ID = /^[a-z0-9][a-z0-9-]{0,62}$/;
// C0 controls and DEL: nobody types them into a search box, and PostgreSQL text cannot hold NUL.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;
const QUERY_MAX = 200;
// Tokens are opaque; the data service issues base64url with a dot, never longer than this.
const PAGE_TOKEN = /^[A-Za-z0-9._~-]{0,512}$/;

/** One schema per filter, each accepting '' for "none". */
export const LIST_FILTER_RULES = {
  categoryId: z.string().regex(CATEGORY_ID, 'Category id is not well-formed.').or(z.literal('')),
  query: z
    .string()
    .refine(
      (query) => query.trim().length <= QUERY_MAX,
      `Query must be at most ${QUERY_MAX} characters.`,
    )
    .refine((query) => !CONTROL.test(query), 'Query must not contain control characters.'),
  pageToken: z
    .string()
    .regex(
      PAGE_TOKEN,
      'Page token is invalid or belongs to a different query; start from the first page.',
    ),
} as const;

const WIRE_NAMES = { categoryId: 'category_id', query: 'query', pageToken: 'page_token' } as const;

/** Messages by the data service's field name for every filter that breaks a rule; null if none. */
export function listFilterErrors(filters: {
  readonly categoryId?: string | undefined;
  readonly query?: string | undefined;
  readonly pageToken?: string | undefined;
}): Record<string, string[]> | null {
  let errors: Record<string, string[]> | null = null;
  for (const name of ['categoryId', 'query', 'pageToken'] as const) {
    const value = filters[name];
    if (value === undefined || value === '') continue;
    const checked = LIST_FILTER_RULES[name].safeParse(value);
    if (!checked.success)
      (errors ??= {})[WIRE_NAMES[name]] = checked.error.issues.map((issue) => issue.message);
  }
  return errors;
}
