// The generator's test schema (testdata/sample.proto) as a registry, for the tests.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadSchema } from './load-schema.mjs';

export const here = dirname(fileURLToPath(import.meta.url));
export const testdata = join(here, 'testdata');
export const bin = (name) => join(here, '..', '..', '..', 'node_modules', '.bin', name);

/** testdata/sample.proto's descriptors, compiled by buf. */
export const loadSampleSchema = () => loadSchema(testdata, bin('buf'));
