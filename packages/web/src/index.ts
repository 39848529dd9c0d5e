/**
 * @strata/web, isomorphic part: route definitions, the payload protocol, and the React pieces
 * both the server and the browser render with.
 */
export {
  createRouteTable,
  matchRoute,
  type CompiledRoute,
  type RouteMatch,
  type RouteTable,
} from './routes/route-table.js';
export {
  segment,
  type Deferred,
  type ErrorViewProps,
  type Loader,
  type LoaderContext,
  type LoaderData,
  type LoaderRequest,
  type SegmentDefinition,
  type SegmentProps,
} from './routes/route-types.js';
export {
  HEADERS,
  PAYLOAD_CONTENT_TYPE,
  PAYLOAD_QUERY_PARAM,
  PAYLOAD_VARY,
  PROTOCOL_VERSION,
  TREE_LIMITS,
} from './protocol/constants.js';
export { payloadHash } from './protocol/payload-hash.js';
export { decodeRecord, encodeRecord, type PayloadRecord } from './protocol/payload-records.js';
export { jsonForScript } from './protocol/safe-json.js';
export {
  encodeTreeHeader,
  parseTreeHeader,
  readKeyNames,
  segmentKey,
} from './protocol/tree-header.js';
export { Await, type DeferredRef } from './render/await.js';
export { useActionId, type ActionIds } from './render/action-ids.js';
export { useFormResult, type FormResult } from './render/form-result.js';
export { SegmentTree } from './render/segment-tree.js';
export type { DeferredOutcome, SegmentOutcome } from './render/segment-outcome.js';
export type { SegmentSource, SegmentState } from './render/segment-source.js';
export { FRESH_MS, KEPT_MS } from './protocol/freshness.js';
export { Link, type LinkProps } from './client/react/link.js';
export { useActionForm } from './client/react/use-action-form.js';
export type { BrowserTelemetrySettings, TelemetryBoot } from './protocol/telemetry-boot.js';
