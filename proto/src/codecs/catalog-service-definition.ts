/**
 * CatalogService's grpc-js definition with the one-pass encoders as responseSerialize for the
 * hot reads; every other method (and any value the encoders refuse) keeps ts-proto's codec.
 */
import { CatalogServiceService } from '../gen/strata/catalog/v1/catalog_service.js';
import { encodeGetItemResponse, encodeListItemsResponse } from './response-encoders.js';
import { withFallback } from './with-fallback.js';

/** The definition the server registers. */
export function catalogServiceDefinition(): typeof CatalogServiceService {
  const { listItems, getItem } = CatalogServiceService;
  return {
    ...CatalogServiceService,
    listItems: {
      ...listItems,
      responseSerialize: withFallback(encodeListItemsResponse, listItems.responseSerialize),
    },
    getItem: {
      ...getItem,
      responseSerialize: withFallback(encodeGetItemResponse, getItem.responseSerialize),
    },
  };
}
