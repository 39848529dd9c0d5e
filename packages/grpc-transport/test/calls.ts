/**
 * A call the transport tests make: a method path and request bytes (the transport moves bytes,
 * so any will do), and the error a call that must fail ends with.
 */
import type { GrpcCallError } from '../src/transport/call-error.js';

export const METHOD = '/test.v1.EchoService/Echo';
export const request = (id: number) => Buffer.from([0x08, id]);

/** The error `pending` rejects with (it must reject). */
export async function failure(pending: Promise<unknown>): Promise<GrpcCallError> {
  const outcome = await pending.then(
    () => undefined,
    (error: unknown) => error,
  );
  if (!outcome) throw new Error('the call succeeded');
  return outcome as GrpcCallError;
}
