/**
 * Hydrates a server-rendered page: reads the boot record and the inlined segment data, and
 * hydrates the same segment tree the server rendered.
 */
import { hydrateRoot } from 'react-dom/client';
import { FormResultContext, type FormResult } from '../render/form-result.js';
import { SegmentTree } from '../render/segment-tree.js';
import { NOT_FOUND_PAGE, NOT_FOUND_PAGE_ID } from '../routes/not-found-page.js';
import type { RouteTable } from '../routes/route-table.js';
import { createInlineSource } from './inline-source.js';

/** What the server's first script sets. */
export interface BootRecord {
  readonly build: string;
  readonly route: string;
  readonly pattern: string;
  readonly params: Readonly<Record<string, string>>;
  readonly segments: readonly string[];
  readonly form: FormResult | null;
}

declare global {
  interface Window {
    __strata_boot?: BootRecord;
    __strata?: unknown[];
  }
}

/** Hydrates the document; resolves once React has taken over. */
export function hydrateApp<Services>(table: RouteTable<Services>): void {
  const boot = window.__strata_boot;
  if (!boot) throw new Error('No boot record: this page was not rendered by Strata.');
  const queue = (window.__strata ??= []) as Parameters<typeof createInlineSource>[0];
  const source = createInlineSource(queue);
  const segments = boot.segments
    .map((id) => (id === NOT_FOUND_PAGE_ID ? NOT_FOUND_PAGE : table.byId.get(id)))
    .filter((s) => s !== undefined);
  hydrateRoot(
    document,
    <FormResultContext value={boot.form}>
      <SegmentTree segments={segments as never} params={boot.params} source={source} />
    </FormResultContext>,
  );
}
