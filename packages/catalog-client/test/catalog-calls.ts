/**
 * The calls the transport tests make on one replica: the catalogue's unary methods, their
 * encoded requests, and the error a call that must fail ends with.
 */
import { CatalogServiceService, ListItemsRequest } from '@strata/proto';
import type { GrpcCallError as CatalogCallError } from '@strata/grpc-transport';

export const LIST = CatalogServiceService.listItems.path;
export const GET = CatalogServiceService.getItem.path;
export const listRequest = (fields: Partial<ListItemsRequest>) =>
  ListItemsRequest.encode(ListItemsRequest.fromPartial(fields)).finish();
export const getRequest = (id: number) => CatalogServiceService.getItem.requestSerialize({ id });

/** The error `pending` rejects with (it must reject). */
export async function failure(pending: Promise<unknown>): Promise<CatalogCallError> {
  const outcome = await pending.then(
    () => undefined,
    (error: unknown) => error,
  );
  if (!outcome) throw new Error('the call succeeded');
  return outcome as CatalogCallError;
}
