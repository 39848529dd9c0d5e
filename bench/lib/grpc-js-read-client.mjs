// A grpc-js client class for CatalogService whose ListItems and GetItem answers are read by the
// contract's fast decoders (@strata/proto): how the render service read before its transport on
// node:http2, kept only as the benchmarks' baseline for the catalogue client.
import { makeGenericClientConstructor } from '@grpc/grpc-js';
import {
  CATALOG_SERVICE_NAME,
  CatalogServiceService,
  decodeGetItemResponse,
  decodeListItemsResponse,
} from '@strata/proto';

/** The generated definition with the fast answer decoders in place. */
export const FastReadCatalogService = {
  ...CatalogServiceService,
  listItems: { ...CatalogServiceService.listItems, responseDeserialize: decodeListItemsResponse },
  getItem: { ...CatalogServiceService.getItem, responseDeserialize: decodeGetItemResponse },
};

export const FastReadCatalogClient = makeGenericClientConstructor(
  FastReadCatalogService,
  CATALOG_SERVICE_NAME,
);
