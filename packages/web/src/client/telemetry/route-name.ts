/**
 * Transactions are named by route pattern, never by URL (URLs carry ids and would make every
 * page its own transaction).
 */
import { matchRoute, type RouteTable } from '../../routes/route-table.js';

/** The pattern a URL's route has, or `/404` when none matches. */
export function routeNameOf(table: RouteTable<never>, url: string): string {
  const pathname = new URL(url, 'http://route.invalid').pathname;
  return matchRoute(table, pathname)?.route.pattern ?? '/404';
}
