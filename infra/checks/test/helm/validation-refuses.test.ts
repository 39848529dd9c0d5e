/**
 * The validation cannot pass vacuously: deliberately bad objects, derived from a real render,
 * are refused by the API schema check (a wrong type, a missing required field, a version off
 * the allow-list) and by the unknown-field check (a field no API type declares, at any depth,
 * the Gateway API's HTTPRoute and the Prometheus Operator's kinds included).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { apiSchemaProblems } from '../../src/helm/api-schema.js';
import type { Deployment, StatefulSet } from 'kubernetes-types/apps/v1.js';
import type { ConfigMap, Service } from 'kubernetes-types/core/v1.js';
import type { PodDisruptionBudget } from 'kubernetes-types/policy/v1.js';
import type { IPrometheusRule } from '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/PrometheusRule';
import type { IServiceMonitor } from '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/ServiceMonitor';
import type { HTTPRoute } from '../../src/helm/gateway-api-types.js';
import type { RenderedObject } from '../../src/helm/manifests.js';
import { unknownFieldProblems } from '../../src/helm/unknown-fields.js';
import { changedCopy } from './broken-objects.js';
import { renderScenario } from './rendered-scenarios.js';

let objects: readonly RenderedObject[];

beforeAll(async () => {
  const [defaults, httpRoute, monitoring] = await Promise.all([
    renderScenario('defaults'),
    renderScenario('httproute'),
    renderScenario('monitoring'),
  ]);
  const monitors = monitoring.objects.filter(({ object }) =>
    ['ServiceMonitor', 'PrometheusRule'].includes(object.kind),
  );
  objects = [...defaults.objects, ...httpRoute.objects, ...monitors];
});

/** A copy of the first rendered object of `kind`, changed by `change`. */
function broken<T>(kind: string, change: (object: T) => void): RenderedObject {
  const found = objects.find(({ object }) => object.kind === kind);
  if (!found) throw new Error(`no ${kind} rendered`);
  return changedCopy(found, change);
}

const firstContainer = (workload: Deployment | StatefulSet) =>
  workload.spec!.template.spec!.containers[0]!;

describe('the API schema check', () => {
  it('accepts the objects the bad ones are made from', () => {
    expect(apiSchemaProblems(objects)).toEqual([]);
  });

  it('refuses a wrong type and a missing required field', () => {
    const wrongType = broken<Deployment>('Deployment', (deployment) => {
      Object.assign(deployment.spec!, { replicas: 'two' });
    });
    const missingName = broken<StatefulSet>('StatefulSet', (statefulSet) => {
      Reflect.deleteProperty(firstContainer(statefulSet), 'name');
    });
    const problems = apiSchemaProblems([wrongType, missingName]);
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/spec\/replicas must be integer/);
    expect(problems[1]).toMatch(/containers\/0 must have required property name/);
  });

  it('refuses an API version off the allow-list, such as a removed beta', () => {
    const beta = broken<PodDisruptionBudget>('PodDisruptionBudget', (budget) => {
      Object.assign(budget, { apiVersion: 'policy/v1beta1' });
    });
    const monitor = broken<IServiceMonitor>('ServiceMonitor', (serviceMonitor) => {
      Object.assign(serviceMonitor, { kind: 'PodMonitor' });
    });
    expect(apiSchemaProblems([beta, monitor])).toEqual([
      expect.stringContaining('policy/v1beta1 PodDisruptionBudget is not on the allow-list'),
      expect.stringContaining('monitoring.coreos.com/v1 PodMonitor is not on the allow-list'),
    ]);
  });

  it('checks the Prometheus Operator kinds against their own schema', () => {
    const wrongType = broken<IServiceMonitor>('ServiceMonitor', (serviceMonitor) => {
      Object.assign(serviceMonitor.spec.endpoints[0]!, { port: 3000 });
    });
    const missingExpr = broken<IPrometheusRule>('PrometheusRule', (rule) => {
      Reflect.deleteProperty(rule.spec.groups![0]!.rules![0]!, 'expr');
    });
    const problems = apiSchemaProblems([wrongType, missingExpr]);
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/ServiceMonitor.*endpoints\/0\/port must be string/);
    expect(problems[1]).toMatch(/PrometheusRule.*rules\/0 must have required property expr/);
  });

  it('does not see unknown fields, which is why the type check exists', () => {
    const unknown = broken<Deployment>('Deployment', (deployment) => {
      Object.assign(firstContainer(deployment), {
        livenesProbe: { httpGet: { path: '/', port: 1 } },
      });
    });
    expect(apiSchemaProblems([unknown])).toEqual([]);
  });
});

describe('the unknown-field check', () => {
  it('refuses a misspelt field deep in a pod template', async () => {
    const misspelt = broken<Deployment>('Deployment', (deployment) => {
      Object.assign(firstContainer(deployment), {
        livenesProbe: { httpGet: { path: '/', port: 1 } },
      });
    });
    const problems = await unknownFieldProblems([misspelt]);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(
      /deliberately bad Deployment.*'"livenesProbe"' does not exist in type 'Container'/,
    );
  });

  it('refuses unknown fields in metadata, in a Service port and in an HTTPRoute', async () => {
    const problems = await unknownFieldProblems([
      broken<ConfigMap>('ConfigMap', (configMap) => {
        Object.assign(configMap.metadata!, { label: { app: 'strata' } });
      }),
      broken<Service>('Service', (service) => {
        Object.assign(service.spec!.ports![0]!, { targetport: 'http' });
      }),
      broken<HTTPRoute>('HTTPRoute', (route) => {
        Object.assign(route.spec.rules![0]!.backendRefs![0]!, { service: 'strata-gateway' });
      }),
    ]);
    expect(problems).toEqual([
      expect.stringMatching(/ConfigMap.*'"label"' does not exist in type 'ObjectMeta'/),
      expect.stringMatching(/Service.*'"targetport"' does not exist in type 'ServicePort'/),
      expect.stringMatching(/HTTPRoute.*'"service"' does not exist in type 'HTTPBackendRef'/),
    ]);
  });

  it('refuses unknown fields in a ServiceMonitor endpoint and in a PrometheusRule rule', async () => {
    const problems = await unknownFieldProblems([
      broken<IServiceMonitor>('ServiceMonitor', (serviceMonitor) => {
        Object.assign(serviceMonitor.spec.endpoints[0]!, { scrapeInterval: '15s' });
      }),
      broken<IPrometheusRule>('PrometheusRule', (rule) => {
        Object.assign(rule.spec.groups![0]!.rules![0]!, { annotation: { summary: 'x' } });
      }),
    ]);
    expect(problems).toEqual([
      expect.stringMatching(/ServiceMonitor.*'"scrapeInterval"' does not exist in type/),
      expect.stringMatching(/PrometheusRule.*'"annotation"' does not exist in type/),
    ]);
  });

  it('also refuses a value the type rules out', async () => {
    const problems = await unknownFieldProblems([
      broken<HTTPRoute>('HTTPRoute', (route) => {
        Object.assign(route.spec.rules![0]!.matches![0]!.path!, { type: 'Prefix' });
      }),
    ]);
    expect(problems).toEqual([expect.stringMatching(/HTTPRoute.*'"Prefix"' is not assignable/)]);
  });
});
