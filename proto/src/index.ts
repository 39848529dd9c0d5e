/**
 * The Strata gRPC contracts as TypeScript: message types, codecs and grpc-js service
 * definitions generated into ./gen (never edited by hand; `npm run gen:proto`), with the fast
 * codecs for the hot reads generated beside them (each falling back to ts-proto's) on the
 * primitives in ./wire.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { catalogServiceMethods } from './gen/strata/catalog/v1/catalog_service_methods.js';

export { Category, ChangeKind, Item, ItemView } from './gen/strata/catalog/v1/catalog.js';
export {
  CatalogServiceClient,
  CatalogServiceService,
  CreateItemRequest,
  CreateItemResponse,
  DeleteItemRequest,
  DeleteItemResponse,
  GetItemRequest,
  GetItemResponse,
  ListCategoriesRequest,
  ListCategoriesResponse,
  ListItemsRequest,
  ListItemsResponse,
  UpdateItemRequest,
  UpdateItemResponse,
  WatchChangesRequest,
  WatchChangesResponse,
  type CatalogServiceServer,
  type DeepPartial,
} from './gen/strata/catalog/v1/catalog_service.js';
export {
  BadRequest,
  BadRequest_FieldViolation,
  ErrorInfo,
} from './gen/google/rpc/error_details.js';
export { Status as RpcStatus } from './gen/google/rpc/status.js';
export { Any } from './gen/google/protobuf/any.js';
export { FieldMask } from './gen/google/protobuf/field_mask.js';

/** Directory holding the .proto sources (for reflection and grpcurl-style tools). */
export const PROTO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The .proto files that define the public services, relative to PROTO_ROOT. */
export const SERVICE_PROTO_FILES = ['strata/catalog/v1/catalog_service.proto'] as const;

/** Fully-qualified name of the catalogue service (for health checks and reflection). */
export const CATALOG_SERVICE_NAME = 'strata.catalog.v1.CatalogService';
export { readStatusDetails, type StatusDetails } from './status-details.js';
export { catalogServiceMethods } from './gen/strata/catalog/v1/catalog_service_methods.js';
export {
  decodeGetItemResponse,
  decodeListItemsResponse,
} from './gen/strata/catalog/v1/catalog_service_fast_decoders.js';
export {
  encodeGetItemRequest,
  encodeGetItemResponse,
  encodeListItemsRequest,
  encodeListItemsResponse,
} from './gen/strata/catalog/v1/catalog_service_fast_encoders.js';

/** The CatalogService definition the data service registers (the generated method table). */
export const catalogServiceDefinition = () => catalogServiceMethods;
