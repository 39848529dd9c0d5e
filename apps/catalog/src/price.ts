/**
 * How the catalogue prints a price: whole dollars and two-digit cents, the same on every page
 * and exactly as the benchmark data prints it (bench/anchors).
 */

/** 7919 → "$79.19". */
export function formatPrice(cents: number): string {
  return `$${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}
