export { createDeferred, type Deferred } from './deferred.js';
export { POSTGRES_IMAGE, startTestPostgres, type TestPostgres } from './postgres-container.js';
export { createTestCertificates, type TestCertificates } from './test-certificates.js';
export { sampleSum } from './prometheus-text.js';
export { REDIS_IMAGE, freePort, startTestRedis, type TestRedis } from './redis-container.js';
export { listeningInodes, listensOn, parentOf, processTree, treeListensOn } from './port-owner.js';
export { PortTakenError, onFreePort, type PortPicking } from './port-picking.js';
