export {
  ConfigError,
  describeConfig,
  loadConfig,
  type LoadConfigOptions,
  type VariableDoc,
} from './load-config.js';
export {
  bool,
  csvList,
  durationMs,
  oneOf,
  pemFile,
  port,
  positiveInt,
  requireTogether,
  url,
} from './env-parsers.js';
export { FILE_SUFFIX, type ReadTextFile } from './file-variables.js';
export {
  DEVELOPMENT_OPT_OUT,
  guardProduction,
  notDevelopmentSecret,
  requiredInProduction,
  type ProductionRule,
} from './production-guard.js';
