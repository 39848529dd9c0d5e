/**
 * Rule: every ServiceMonitor selects at least one Service of this render (in the release's
 * namespace: it names no other), each endpoint names a port every selected Service has, and
 * the job label it sets (jobLabel) is a label every selected Service carries. Otherwise the
 * Prometheus Operator scrapes nothing, or names the job after the Service (strata-render), and
 * the rules, written for jobs render, data and relay, select nothing: both fail silently.
 */
import type { IServiceMonitor } from '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/ServiceMonitor';
import type { Service } from 'kubernetes-types/core/v1.js';
import { selectorMatches } from '../label-selectors.js';
import { describeObject } from '../manifests.js';
import type { Rule, Violation } from './violation.js';

export const serviceMonitors: Rule = {
  name: 'service-monitors',
  description:
    'every ServiceMonitor selects Services of this render, on a port each has, with a jobLabel each carries',
  check(objects) {
    const services = objects
      .filter(({ object }) => object.kind === 'Service')
      .map(({ object }) => object as unknown as Service);
    const violations: Violation[] = [];
    for (const { object } of objects) {
      if (object.kind !== 'ServiceMonitor') continue;
      const { spec } = object as unknown as IServiceMonitor;
      const fail = (message: string) =>
        violations.push({ rule: this.name, subject: describeObject(object), message });
      if (spec.namespaceSelector) fail('looks beyond its own namespace (namespaceSelector)');
      const selected = services.filter((service) =>
        selectorMatches(spec.selector, service.metadata?.labels ?? {}),
      );
      const empty = Object.keys(spec.selector.matchLabels ?? {}).length === 0;
      if (empty || selected.length === 0) {
        fail(`selector ${JSON.stringify(spec.selector)} selects no Service of this render`);
        continue;
      }
      for (const service of selected) {
        const name = `Service/${service.metadata?.name ?? ''}`;
        for (const endpoint of spec.endpoints) {
          const hasPort = (service.spec?.ports ?? []).some((port) => port.name === endpoint.port);
          if (!hasPort)
            fail(`endpoint port ${endpoint.port ?? '(unset)'} is not a port of ${name}`);
        }
        if (!spec.jobLabel || service.metadata?.labels?.[spec.jobLabel] === undefined)
          fail(`jobLabel ${spec.jobLabel ?? '(unset)'} is not a label of ${name}`);
      }
    }
    return violations;
  },
};
