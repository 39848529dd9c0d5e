/**
 * A promise-based CatalogService client for tests, plus helpers to read error details.
 */
import * as grpc from '@grpc/grpc-js';
import {
  CatalogServiceClient,
  readStatusDetails,
  type CreateItemRequest,
  type CreateItemResponse,
  type DeleteItemRequest,
  type DeleteItemResponse,
  type GetItemResponse,
  type ListCategoriesResponse,
  ListItemsRequest,
  type ListItemsResponse,
  type StatusDetails,
  UpdateItemRequest,
  type UpdateItemResponse,
} from '@strata/proto';

type Callback<Res> = (error: grpc.ServiceError | null, response: Res) => void;
type UnaryMethod<Req, Res> = (
  request: Req,
  metadata: grpc.Metadata,
  options: Partial<grpc.CallOptions>,
  callback: Callback<Res>,
) => grpc.ClientUnaryCall;

/** A failed call, with its status code and decoded details. */
export class CallError extends Error {
  constructor(
    readonly code: grpc.status,
    readonly details: StatusDetails,
    message: string,
  ) {
    super(message);
  }
}

/** Promise wrappers around every unary method, with an optional deadline in ms. */
export function createTestClient(address: string) {
  const client = new CatalogServiceClient(address, grpc.credentials.createInsecure());
  function unary<Req, Res>(method: UnaryMethod<Req, Res>) {
    return (request: Req, deadlineMs = 10_000) =>
      new Promise<Res>((resolve, reject) => {
        method.call(
          client,
          request,
          new grpc.Metadata(),
          { deadline: Date.now() + deadlineMs },
          (error, response) => {
            if (error)
              reject(new CallError(error.code, readStatusDetails(error.metadata), error.details));
            else resolve(response);
          },
        );
      });
  }
  return {
    raw: client,
    listCategories: unary<object, ListCategoriesResponse>(client.listCategories),
    listItems: (request: Partial<ListItemsRequest>, deadlineMs?: number) =>
      unary<ListItemsRequest, ListItemsResponse>(client.listItems)(
        ListItemsRequest.fromPartial(request),
        deadlineMs,
      ),
    getItem: unary<{ id: number }, GetItemResponse>(client.getItem),
    createItem: unary<CreateItemRequest, CreateItemResponse>(client.createItem),
    updateItem: (
      request: Parameters<typeof UpdateItemRequest.fromPartial>[0],
      deadlineMs?: number,
    ) =>
      unary<UpdateItemRequest, UpdateItemResponse>(client.updateItem)(
        UpdateItemRequest.fromPartial(request),
        deadlineMs,
      ),
    deleteItem: unary<DeleteItemRequest, DeleteItemResponse>(client.deleteItem),
    close: () => client.close(),
  };
}

/** The test client's type. */
export type TestClient = ReturnType<typeof createTestClient>;

/** Awaits a call expected to fail and returns its error. */
export async function expectCallError(promise: Promise<unknown>): Promise<CallError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof CallError) return error;
    throw error;
  }
  throw new Error('expected the call to fail, but it succeeded');
}
