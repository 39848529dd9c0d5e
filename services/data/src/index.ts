export { createCatalog, type Catalog, type CallContext } from './catalog.js';
export { DataConfigSchema, loadDataConfig, type DataConfig } from './config.js';
export { startDataService, type RunningDataService } from './data-service.js';
export { DataError, DATA_ERROR_STATUS, type DataErrorCode, type FieldViolation } from './errors.js';
