/**
 * CatalogService's grpc-js definition with the one-pass encoders as responseSerialize for the
 * hot reads; every other method (and any value the encoders refuse) keeps ts-proto's codec.
 */
import type { GetItemResponse, ListItemsResponse } from '@strata/proto';
import { CatalogServiceService } from '@strata/proto';
import { encodeGetItemResponse, encodeListItemsResponse } from './response-encoders.js';

/** Uses `fast`, or `generated` (ts-proto) when `fast` declines the value. */
function withFallback<T>(
  fast: (value: T) => Buffer | undefined,
  generated: (value: T) => Buffer,
): (value: T) => Buffer {
  return (value) => fast(value) ?? generated(value);
}

/** The definition the server registers. */
export function catalogServiceDefinition(): typeof CatalogServiceService {
  const { listItems, getItem } = CatalogServiceService;
  return {
    ...CatalogServiceService,
    listItems: {
      ...listItems,
      responseSerialize: withFallback<ListItemsResponse>(
        encodeListItemsResponse,
        listItems.responseSerialize,
      ),
    },
    getItem: {
      ...getItem,
      responseSerialize: withFallback<GetItemResponse>(
        encodeGetItemResponse,
        getItem.responseSerialize,
      ),
    },
  };
}
