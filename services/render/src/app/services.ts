/**
 * What the example app's loaders and actions receive for one request.
 */
import type { CatalogGateway } from '../gateway/catalog-gateway.js';

/** Per-request services. */
export interface AppServices {
  readonly catalog: CatalogGateway;
  /** Server-action ids by name, for forms to post. */
  readonly actionIds: Readonly<Record<string, string>>;
}

/** 7919 → "$79.19" (the benchmark data's formatPrice, bench/anchors). */
export function formatPrice(cents: number): string {
  return `$${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}

/** Parses a canonical positive integer id ("7", not "07" or "7.0"); null otherwise. */
export function parseId(text: string | undefined): number | null {
  return text !== undefined && /^[1-9][0-9]{0,15}$/.test(text) ? Number(text) : null;
}
