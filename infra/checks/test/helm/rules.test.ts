/**
 * Each chart rule holds on the real renders and fails on an object broken the way it guards
 * against, so no rule can pass vacuously. The broken objects are copies of rendered ones.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Deployment, StatefulSet } from 'kubernetes-types/apps/v1.js';
import type { HorizontalPodAutoscaler } from 'kubernetes-types/autoscaling/v2.js';
import type { Job } from 'kubernetes-types/batch/v1.js';
import type { Service } from 'kubernetes-types/core/v1.js';
import type { Ingress, NetworkPolicy } from 'kubernetes-types/networking/v1.js';
import type { PodDisruptionBudget } from 'kubernetes-types/policy/v1.js';
import type { IServiceMonitor } from '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/ServiceMonitor';
import type { HTTPRoute } from '../../src/helm/gateway-api-types.js';
import type { RenderedObject } from '../../src/helm/manifests.js';
import { autoscalerTargets } from '../../src/helm/rules/autoscaler-targets.js';
import { CHART_RULES } from '../../src/helm/rules/chart-rules.js';
import { containerHardening } from '../../src/helm/rules/container-hardening.js';
import { containerProbes } from '../../src/helm/rules/container-probes.js';
import { containerResources } from '../../src/helm/rules/container-resources.js';
import { durationSeconds, relayDrain } from '../../src/helm/rules/relay-drain.js';
import { relaySpool } from '../../src/helm/rules/relay-spool.js';
import { routeBackends } from '../../src/helm/rules/route-backends.js';
import { serviceMonitors } from '../../src/helm/rules/service-monitors.js';
import { serviceTargetPorts } from '../../src/helm/rules/service-target-ports.js';
import type { Rule } from '../../src/helm/rules/violation.js';
import { workloadSelectors } from '../../src/helm/rules/workload-selectors.js';
import { withChanged } from './broken-objects.js';
import { renderScenario } from './rendered-scenarios.js';

let good: readonly RenderedObject[];

beforeAll(async () => {
  const [bundled, ingress, httpRoute, monitoring] = await Promise.all([
    renderScenario('bundled'),
    renderScenario('ingress'),
    renderScenario('httproute'),
    renderScenario('monitoring'),
  ]);
  const added = [...ingress.objects, ...httpRoute.objects, ...monitoring.objects].filter(
    ({ object }) => ['Ingress', 'HTTPRoute', 'ServiceMonitor'].includes(object.kind),
  );
  good = [...bundled.objects, ...added];
});

/** The render with `kind/name` replaced by a copy changed by `change`. */
function withBroken<T>(kind: string, name: string, change: (object: T) => void): RenderedObject[] {
  return withChanged(good, kind, name, change);
}

function messages(rule: Rule, objects: readonly RenderedObject[]): string[] {
  return rule.check(objects).map((violation) => `${violation.subject}: ${violation.message}`);
}

type Workload = Deployment | StatefulSet | Job;
const podSpec = (workload: Workload) => workload.spec!.template.spec!;
const container = (workload: Workload) => podSpec(workload).containers[0]!;

describe('chart rules', () => {
  it.each(CHART_RULES.map((rule) => [rule.name, rule] as const))(
    '%s holds on the rendered chart',
    (_name, rule) => {
      expect(messages(rule, good)).toEqual([]);
    },
  );

  it('container-probes: a missing probe fails, a hook Job needs none', () => {
    const broken = withBroken<Deployment>('Deployment', 'strata-render', (deployment) => {
      delete container(deployment).livenessProbe;
    });
    expect(messages(containerProbes, broken)).toEqual([
      'Deployment/strata-render/render: has no livenessProbe',
    ]);
    const job = good.find(({ object }) => object.kind === 'Job')?.object as unknown as Job;
    expect(container(job).readinessProbe).toBeUndefined();
  });

  it('container-resources: no memory limit fails, on hook pods too', () => {
    const broken = withBroken<Job>('Job', 'strata-migration', (job) => {
      delete container(job).resources!.limits;
    });
    expect(messages(containerResources, broken)).toEqual([
      'Job/strata-migration/migrate: has no limits.memory',
    ]);
  });

  it('container-hardening: each weakened setting is named', () => {
    const broken = withBroken<StatefulSet>('StatefulSet', 'strata-postgresql', (statefulSet) => {
      const postgres = container(statefulSet);
      const context = postgres.securityContext!;
      context.readOnlyRootFilesystem = false;
      context.allowPrivilegeEscalation = true;
      context.capabilities = { add: ['NET_ADMIN'] };
      delete context.seccompProfile;
      delete context.runAsNonRoot;
      podSpec(statefulSet).securityContext = { runAsUser: 0 };
      postgres.volumeMounts = postgres.volumeMounts!.filter((mount) => mount.mountPath !== '/tmp');
    });
    expect(messages(containerHardening, broken)).toEqual(
      [
        'runAsNonRoot is not true',
        'runs as user 0',
        'allowPrivilegeEscalation is not false',
        'readOnlyRootFilesystem is not true',
        'does not drop ALL capabilities',
        'adds capabilities',
        'seccompProfile is not RuntimeDefault',
        'has no emptyDir at /tmp',
      ].map((message) => `StatefulSet/strata-postgresql/postgresql: ${message}`),
    );
  });

  it('container-hardening: a pod-level setting counts when the container has none', () => {
    const podLevel = withBroken<Deployment>('Deployment', 'strata-data', (deployment) => {
      delete container(deployment).securityContext!.runAsNonRoot;
      delete container(deployment).securityContext!.seccompProfile;
    });
    expect(messages(containerHardening, podLevel)).toEqual([]);
  });

  it('workload-selectors: a Service, a budget and a policy peer that select nothing fail', () => {
    const service = withBroken<Service>('Service', 'strata-render', (renderService) => {
      renderService.spec!.selector!['app.kubernetes.io/component'] = 'renderer';
    });
    expect(messages(workloadSelectors, service)).toEqual([
      expect.stringMatching(/^Service\/strata-render: spec.selector matches no pod/),
    ]);
    const budget = withBroken<PodDisruptionBudget>('PodDisruptionBudget', 'strata-data', (pdb) => {
      pdb.spec!.selector = { matchExpressions: [{ key: 'tier', operator: 'Exists' }] };
    });
    expect(messages(workloadSelectors, budget)).toEqual([
      expect.stringMatching(/^PodDisruptionBudget\/strata-data: spec.selector matches no pod/),
    ]);
    const policy = withBroken<NetworkPolicy>('NetworkPolicy', 'strata-redis', (redisPolicy) => {
      const peer = redisPolicy.spec!.ingress![0]!.from![0]!;
      peer.podSelector!.matchLabels!['app.kubernetes.io/instance'] = 'x';
    });
    expect(messages(workloadSelectors, policy)).toEqual([
      expect.stringMatching(/^NetworkPolicy\/strata-redis: ingress\[0\] peer matches no pod/),
    ]);
  });

  it('autoscaler-targets: a missing target and a target that sets replicas fail', () => {
    const missing = withBroken<HorizontalPodAutoscaler>(
      'HorizontalPodAutoscaler',
      'strata-relay',
      (autoscaler) => {
        autoscaler.spec!.scaleTargetRef.kind = 'Deployment';
      },
    );
    expect(messages(autoscalerTargets, missing)).toEqual([
      'HorizontalPodAutoscaler/strata-relay: scales apps/v1 Deployment/strata-relay, which this render does not have',
    ]);
    const fighting = withBroken<Deployment>('Deployment', 'strata-render', (deployment) => {
      deployment.spec!.replicas = 2;
    });
    expect(messages(autoscalerTargets, fighting)).toEqual([
      'HorizontalPodAutoscaler/strata-render: Deployment/strata-render sets replicas, which the autoscaler owns',
    ]);
  });

  it('service-target-ports: a number, or a name no selected pod declares, fails', () => {
    const numbered = withBroken<Service>('Service', 'strata-data', (dataService) => {
      const [grpc, metrics] = dataService.spec!.ports!;
      grpc!.targetPort = 50051;
      metrics!.targetPort = 'prometheus';
    });
    expect(messages(serviceTargetPorts, numbered)).toEqual([
      'Service/strata-data:grpc: targetPort 50051 is not a port name',
      'Service/strata-data:metrics: targetPort "prometheus" is not a container port of Deployment/strata-data',
    ]);
  });

  it('route-backends: an Ingress or HTTPRoute to a missing Service or port fails', () => {
    const ingress = withBroken<Ingress>('Ingress', 'strata', (route) => {
      route.spec!.rules![0]!.http!.paths[0]!.backend.service!.port!.name = 'https';
    });
    expect(messages(routeBackends, ingress)).toEqual([
      'Ingress/strata: backend strata-gateway:https is not a Service port of this render',
    ]);
    const route = withBroken<HTTPRoute>('HTTPRoute', 'strata', (httpRoute) => {
      httpRoute.spec.rules![0]!.backendRefs![0]!.name = 'strata-gateway-public';
    });
    expect(messages(routeBackends, route)).toEqual([
      'HTTPRoute/strata: backend strata-gateway-public:8080 is not a Service port of this render',
    ]);
  });

  it('service-monitors: no Service selected, a port it lacks, or a job named after it fails', () => {
    const missing = withBroken<IServiceMonitor>('ServiceMonitor', 'strata-data', (monitor) => {
      monitor.spec.selector.matchLabels!['app.kubernetes.io/component'] = 'database';
    });
    expect(messages(serviceMonitors, missing)).toEqual([
      expect.stringMatching(/^ServiceMonitor\/strata-data: selector .* selects no Service/),
    ]);
    const wrongPort = withBroken<IServiceMonitor>('ServiceMonitor', 'strata-data', (monitor) => {
      monitor.spec.endpoints[0]!.port = 'http';
    });
    expect(messages(serviceMonitors, wrongPort)).toEqual([
      'ServiceMonitor/strata-data: endpoint port http is not a port of Service/strata-data',
    ]);
    const serviceNamed = withBroken<IServiceMonitor>(
      'ServiceMonitor',
      'strata-relay',
      (monitor) => {
        delete monitor.spec.jobLabel;
        monitor.spec.namespaceSelector = { any: true };
      },
    );
    expect(messages(serviceMonitors, serviceNamed)).toEqual([
      'ServiceMonitor/strata-relay: looks beyond its own namespace (namespaceSelector)',
      'ServiceMonitor/strata-relay: jobLabel (unset) is not a label of Service/strata-relay',
    ]);
  });

  it('relay-spool: a Deployment relay, or a spool on an emptyDir, fails', () => {
    const asDeployment = withBroken<StatefulSet>('StatefulSet', 'strata-relay', (relay) => {
      Object.assign(relay, { kind: 'Deployment' });
    });
    expect(messages(relaySpool, asDeployment)).toEqual([
      'Deployment/strata-relay: runs the relay but is not a StatefulSet',
    ]);
    const emptyDir = withBroken<StatefulSet>('StatefulSet', 'strata-relay', (relay) => {
      relay.spec!.volumeClaimTemplates = [];
      podSpec(relay).volumes!.push({ name: 'spool', emptyDir: {} });
    });
    expect(messages(relaySpool, emptyDir)).toEqual([
      'StatefulSet/strata-relay/relay: /spool is not mounted from a volumeClaimTemplate',
    ]);
    const noRelay = good.filter(({ object }) => object.metadata.name !== 'strata-relay');
    expect(messages(relaySpool, noRelay)).toEqual(['(render): no workload runs the relay']);
  });

  it('relay-drain: a grace period shorter than the drain fails', () => {
    const hurried = withBroken<StatefulSet>('StatefulSet', 'strata-relay', (relay) => {
      podSpec(relay).terminationGracePeriodSeconds = 20;
    });
    expect(messages(relayDrain, hurried)).toEqual([
      'StatefulSet/strata-relay/relay: terminationGracePeriodSeconds 20 < 30 (preStop + RELAY_SHUTDOWN_TIMEOUT 20s + 5 s)',
    ]);
    expect([durationSeconds('500ms'), durationSeconds('1m'), durationSeconds('soon')]).toEqual([
      0.5,
      60,
      Number.NaN,
    ]);
  });
});
