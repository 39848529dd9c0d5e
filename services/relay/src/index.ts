/** Public surface of @strata/relay: build the app and parse its configuration. */
export { buildApp, type RelayApp, type RelayDeps } from './app.js';
export { loadRelayConfig, RelayConfigSchema, withDevDefaults, type RelayConfig } from './config.js';
export { RELAY_ERRORS, RelayError, type RelayErrorCode } from './errors.js';
export { DROP_REASONS, type DropReason } from './outcomes/drop-reason.js';
export { FILTER_IDS, type FilterId } from './filters/filter.js';
export { parseEnvelope } from './envelope/parse-envelope.js';
