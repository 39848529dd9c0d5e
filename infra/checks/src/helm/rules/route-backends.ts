/**
 * Rule: every Ingress and HTTPRoute sends traffic to a Service of this render, on a port that
 * Service has (by name for an Ingress, by number for an HTTPRoute).
 */
import type { Service } from 'kubernetes-types/core/v1.js';
import type { Ingress } from 'kubernetes-types/networking/v1.js';
import type { HTTPRoute } from '../gateway-api-types.js';
import { describeObject, type RenderedObject } from '../manifests.js';
import type { Rule, Violation } from './violation.js';

interface Backend {
  readonly service: string;
  readonly port: string | number | undefined;
}

function backendsOf(object: RenderedObject['object']): Backend[] {
  if (object.kind === 'Ingress') {
    const { spec } = object as unknown as Ingress;
    const paths = (spec?.rules ?? []).flatMap((rule) => rule.http?.paths ?? []);
    const backends = [spec?.defaultBackend, ...paths.map((path) => path.backend)];
    return backends.flatMap((backend) =>
      backend?.service
        ? [
            {
              service: backend.service.name,
              port: backend.service.port?.name ?? backend.service.port?.number,
            },
          ]
        : [],
    );
  }
  if (object.kind === 'HTTPRoute') {
    const { spec } = object as unknown as HTTPRoute;
    return (spec.rules ?? [])
      .flatMap((rule) => rule.backendRefs ?? [])
      .filter((ref) => (ref.kind ?? 'Service') === 'Service' && !ref.namespace)
      .map((ref) => ({ service: ref.name, port: ref.port }));
  }
  return [];
}

export const routeBackends: Rule = {
  name: 'route-backends',
  description: 'every Ingress and HTTPRoute backend is a Service port of this render',
  check(objects) {
    const services = new Map(
      objects
        .filter(({ object }) => object.kind === 'Service')
        .map(({ object }) => [object.metadata.name, object as unknown as Service]),
    );
    const violations: Violation[] = [];
    for (const { object } of objects) {
      for (const backend of backendsOf(object)) {
        const service = services.get(backend.service);
        const hasPort = (service?.spec?.ports ?? []).some(
          (port) => port.name === backend.port || port.port === backend.port,
        );
        if (!service || !hasPort)
          violations.push({
            rule: this.name,
            subject: describeObject(object),
            message: `backend ${backend.service}:${backend.port} is not a Service port of this render`,
          });
      }
    }
    return violations;
  },
};
