/**
 * The CatalogService definition and client class the gateway uses: ts-proto's generated ones,
 * except that ListItems and GetItem answers are read by the hand-written decoders
 * (response-decoders.ts).
 */
import { makeGenericClientConstructor } from '@grpc/grpc-js';
import {
  CATALOG_SERVICE_NAME,
  CatalogServiceService,
  type CatalogServiceClient,
} from '@strata/proto';
import { decodeGetItemResponse, decodeListItemsResponse } from './response-decoders.js';

/** The generated service definition with the fast answer decoders in place. */
export const FastReadCatalogService: typeof CatalogServiceService = {
  ...CatalogServiceService,
  listItems: {
    ...CatalogServiceService.listItems,
    responseDeserialize: decodeListItemsResponse,
  },
  getItem: { ...CatalogServiceService.getItem, responseDeserialize: decodeGetItemResponse },
};

/**
 * The same definition as a grpc-js client class (the generated one's constructor and methods):
 * how the gateway read before its unary caller, kept for the benchmarks that compare the two.
 */
export const FastReadCatalogClient = makeGenericClientConstructor(
  FastReadCatalogService,
  CATALOG_SERVICE_NAME,
) as unknown as typeof CatalogServiceClient;
