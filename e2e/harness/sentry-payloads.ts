/** Reading the fields the e2e suites check out of Sentry events, transactions and reports. */

export type Json = Record<string, unknown>;

export const tagsOf = (payload: Json) => (payload.tags ?? {}) as Record<string, string>;
export const traceOf = (payload: Json) =>
  ((payload.contexts as Json | undefined)?.trace ?? {}) as Json & { trace_id?: string };
export const sdkOf = (payload: Json) => String((payload.sdk as Json | undefined)?.name ?? '');
export const exceptionValue = (payload: Json) =>
  String(
    ((payload.exception as { values?: { value?: string }[] } | undefined)?.values ?? []).at(-1)
      ?.value ?? '',
  );

/** How many items of `category` a client report says were dropped. */
export const dropped = (payload: Json, category: string) =>
  ((payload.discarded_events ?? []) as { category: string; quantity: number }[])
    .filter((entry) => entry.category === category)
    .reduce((sum, entry) => sum + entry.quantity, 0);

export const isNavigation = (payload: Json) => traceOf(payload).op === 'navigation';
export const pathOf = (payload: Json) =>
  String(((traceOf(payload).data ?? {}) as Json)['url.path'] ?? '');
