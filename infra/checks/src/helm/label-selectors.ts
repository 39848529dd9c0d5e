/**
 * Kubernetes label selectors, evaluated: `matchLabels` and `matchExpressions` (In, NotIn,
 * Exists, DoesNotExist), all of which must hold. An empty selector selects everything.
 */
import type { LabelSelector } from 'kubernetes-types/meta/v1.js';

export type Labels = Readonly<Record<string, string>>;

/** Whether `labels` satisfy `selector`. */
export function selectorMatches(selector: LabelSelector, labels: Labels): boolean {
  const byLabel = Object.entries(selector.matchLabels ?? {}).every(
    ([key, value]) => labels[key] === value,
  );
  const byExpression = (selector.matchExpressions ?? []).every(({ key, operator, values }) => {
    const value = labels[key];
    switch (operator) {
      case 'In':
        return value !== undefined && (values ?? []).includes(value);
      case 'NotIn':
        return value === undefined || !(values ?? []).includes(value);
      case 'Exists':
        return value !== undefined;
      case 'DoesNotExist':
        return value === undefined;
      default:
        return false;
    }
  });
  return byLabel && byExpression;
}

/** A Service's `spec.selector` (a plain map) as a label selector. */
export function mapSelector(selector: Labels | undefined): LabelSelector {
  return { matchLabels: { ...selector } };
}
