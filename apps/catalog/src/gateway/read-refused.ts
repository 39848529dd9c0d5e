/**
 * A read refused as invalid input: a malformed filter, an over-long query, a page token that is
 * forged or belongs to another query. The client's mistake, never a server error. No imports:
 * page loaders, which are bundled for the browser as well, test for it.
 */
export class ReadRefused extends Error {
  /** Messages by the data service's field name (`category_id`, `query`, `page_token`). */
  readonly fieldErrors: Readonly<Record<string, readonly string[]>>;

  constructor(message: string, fieldErrors: Record<string, readonly string[]>) {
    super(message);
    this.name = 'ReadRefused';
    this.fieldErrors = fieldErrors;
  }
}
