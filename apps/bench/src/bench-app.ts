/**
 * The bench app: the catalogue with the benchmark pages (/bench/*) in front of its own, one
 * app so a benchmark or test stack serves both. The catalogue opens the data connections and
 * gives the benchmark pages' loaders the same services.
 */
import {
  createCatalogApp,
  type CatalogAppOptions,
  type CatalogServices,
} from '@strata/app-catalog';
import type { StrataApp } from '@strata/web/server';
import { benchRoot } from './bench-routes.js';

/** Options tests use (the catalogue's, less the roots this app adds); RENDER_APP's has none. */
export type BenchAppOptions = Omit<CatalogAppOptions, 'extraRoots'>;

/** The bench app, optionally over a given transport. */
export function createBenchApp(options: BenchAppOptions = {}): StrataApp<CatalogServices> {
  return { ...createCatalogApp({ ...options, extraRoots: [benchRoot] }), name: 'bench' };
}
