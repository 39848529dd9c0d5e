/**
 * The CatalogService client class the gateway uses: ts-proto's generated one, except that
 * ListItems and GetItem answers are read by the hand-written decoders (response-decoders.ts).
 */
import { makeGenericClientConstructor } from '@grpc/grpc-js';
import {
  CATALOG_SERVICE_NAME,
  CatalogServiceService,
  type CatalogServiceClient,
} from '@strata/proto';
import { decodeGetItemResponse, decodeListItemsResponse } from './response-decoders.js';

/** Same constructor signature and methods as the generated CatalogServiceClient. */
export const FastReadCatalogClient = makeGenericClientConstructor(
  {
    ...CatalogServiceService,
    listItems: {
      ...CatalogServiceService.listItems,
      responseDeserialize: decodeListItemsResponse,
    },
    getItem: { ...CatalogServiceService.getItem, responseDeserialize: decodeGetItemResponse },
  },
  CATALOG_SERVICE_NAME,
) as unknown as typeof CatalogServiceClient;
