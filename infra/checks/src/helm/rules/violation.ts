/**
 * What a rule over rendered objects reports, and the shape every rule has: pure functions from
 * the render's objects to the violations found (none: the render keeps the rule).
 */
import type { RenderedObject } from '../manifests.js';

export interface Violation {
  readonly rule: string;
  /** `Kind/name` of the offending object (with `/container` where it is one). */
  readonly subject: string;
  readonly message: string;
}

export interface Rule {
  readonly name: string;
  /** What the rule requires, in a sentence, with its exceptions. */
  readonly description: string;
  readonly check: (objects: readonly RenderedObject[]) => Violation[];
}
