export { ConfigError, describeConfig, loadConfig, type VariableDoc } from './load-config.js';
export { bool, csvList, durationMs, oneOf, port, positiveInt, url } from './env-parsers.js';
