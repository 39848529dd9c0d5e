/**
 * Validation of rendered objects against the Kubernetes API schema (kubernetes-models' OpenAPI
 * validators: required fields, types, formats, enums). It does not see fields the schema does
 * not know; unknown-fields.ts catches those.
 */
import { apiTypeOf } from './api-types.js';
import { describeObject, type RenderedObject } from './manifests.js';

/** Every problem of every object, as `Kind/name (template): message`; empty when all are valid. */
export function apiSchemaProblems(objects: readonly RenderedObject[]): string[] {
  const problems: string[] = [];
  for (const { source, object } of objects) {
    const where = `${describeObject(object)} (${source})`;
    const type = apiTypeOf(object);
    if (!type) {
      problems.push(`${where}: ${object.apiVersion} ${object.kind} is not on the allow-list`);
      continue;
    }
    if (!type.model) continue;
    try {
      new type.model(structuredClone(object) as never).validate();
    } catch (error) {
      problems.push(`${where}: ${(error as Error).message}`);
    }
  }
  return problems;
}
