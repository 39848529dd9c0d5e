/**
 * @strata/web/server: the Node side of the runtime — renderers, actions, the Fastify adapter.
 */
export {
  createActionRegistry,
  isWellFormedActionId,
  type ActionRegistry,
} from './actions/action-registry.js';
export {
  actionId,
  defineAction,
  type ActionContext,
  type ActionDefinition,
  type ActionResult,
} from './actions/define-action.js';
export {
  checkOrigin,
  createTrustedProxies,
  effectiveOrigin,
  type TrustedProxies,
} from './actions/origin-check.js';
export type {
  AppHandler,
  AppHandlerContext,
  AppHandlerMethod,
  AppHost,
  AppReadiness,
  AppRequest,
  ChangeSubscriber,
  RunningApp,
  StrataApp,
} from './app/strata-app.js';
export { CLIENT_ERROR_TEXT, SERVER_ERROR_TEXT, renderErrorScreen } from './error-screen.js';
export { errorDigest } from './error-digest.js';
export { createErrorResponder } from './fastify/error-responses.js';
export { drainBody, drainRefusedBodies, type DrainLimits } from './fastify/refused-body-drain.js';
export { pageRouteOf } from './fastify/page-route.js';
export { FORM_ACTION_FIELD, webRoutes, type WebRoutesOptions } from './fastify/web-routes.js';
export { BOOT_GLOBAL, renderDocument } from './render-document.js';
export { payloadFor, renderPayload } from './render-payload.js';
export { notFoundRootOf, type NotFoundRoot } from '../routes/not-found-root.js';
export { parseCookies, traceIdOf } from './request-context.js';
export { registerSecurityHeaders, scriptNonceOf } from './security/security-headers.js';
export type { SecurityPolicy } from './security/security-policy.js';
export type {
  RenderRequest,
  RenderResponse,
  RuntimeLogger,
  RuntimeTelemetry,
  ServerErrorContext,
  WebRuntime,
} from './web-runtime.js';
export type { LoadedSegment } from './run-loader.js';
export type { SegmentCache, SegmentLookup } from './segment-cache.js';
