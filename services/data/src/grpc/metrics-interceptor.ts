/**
 * The one place served calls are measured: a grpc-js server interceptor, so every unary call and
 * stream of every service on the server (CatalogService, health, reflection) is observed once,
 * from its arrival to the status it ended with, without each handler having to remember.
 */
import { ServerInterceptingCall, status, type ServerInterceptor } from '@grpc/grpc-js';
import { grpcTypeOf, type GrpcServerObserver } from '@strata/metrics';

/** Builds the interceptor that reports each call's duration and code to `observe`. */
export function metricsInterceptor(observe: GrpcServerObserver): ServerInterceptor {
  return (method, call) => {
    const started = performance.now();
    const type = grpcTypeOf(method.requestStream, method.responseStream);
    let recorded = false;
    const record = (code: number) => {
      if (recorded) return;
      recorded = true;
      observe(type, method.path, code, (performance.now() - started) / 1000);
    };
    return new ServerInterceptingCall(call, {
      // grpc-js reports every call's end as a cancel, after any status; so this counts only calls
      // that ended without the handler's status: the client went away, or grpc-js itself ended
      // the call at its deadline (it sends that status past the interceptors).
      start: (next) => next({ onCancel: () => record(endedWithoutStatus(call.getDeadline())) }),
      sendStatus: (sent, next) => {
        record(sent.code);
        next(sent);
      },
    });
  };
}

/** The code of a call that ended with no status from its handler. */
export function endedWithoutStatus(deadline: Date | number, now = Date.now()): status {
  const at = deadline instanceof Date ? deadline.getTime() : deadline;
  return at <= now ? status.DEADLINE_EXCEEDED : status.CANCELLED;
}
