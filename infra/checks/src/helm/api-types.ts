/**
 * The API versions and kinds the chart may render, each with its kubernetes-types type (for
 * the unknown-field check) and its kubernetes-models class (for schema validation). Anything
 * else, a deprecated version included, is refused. HTTPRoute has no kubernetes-models class:
 * its type is the chart's own transcription of Gateway API v1 (gateway-api-types.ts). The
 * Prometheus Operator's kinds are not in kubernetes-types either: their types and classes come
 * from @kubernetes-models/prometheus-operator, generated from the operator's Go API.
 */
import { ConfigMap, Pod, Secret, Service } from 'kubernetes-models/v1';
import { Deployment, StatefulSet } from 'kubernetes-models/apps/v1';
import { Job } from 'kubernetes-models/batch/v1';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { Ingress, NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1';
import { PrometheusRule } from '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/PrometheusRule';
import { ServiceMonitor } from '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/ServiceMonitor';

/** A kubernetes-models class: built from the object, `validate()` throws what is wrong. */
type ModelClass = new (data: never) => { validate(): void };

export interface ApiType {
  /** Module and exported type name the generated type-check file imports. */
  readonly typeModule: string;
  readonly typeName: string;
  /** Absent: no published schema here; the type check is the only structural check. */
  readonly model?: ModelClass;
}

// The .js name resolves to the .ts source, as every import in this repository does.
const GATEWAY_API_TYPES_MODULE = new URL('./gateway-api-types.js', import.meta.url).pathname;
const MONITORING_TYPES = '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1';

/** `apiVersion/kind` → its types. */
export const ALLOWED_API_TYPES: Readonly<Record<string, ApiType>> = {
  'v1/ConfigMap': {
    typeModule: 'kubernetes-types/core/v1.js',
    typeName: 'ConfigMap',
    model: ConfigMap,
  },
  'v1/Secret': { typeModule: 'kubernetes-types/core/v1.js', typeName: 'Secret', model: Secret },
  'v1/Service': { typeModule: 'kubernetes-types/core/v1.js', typeName: 'Service', model: Service },
  'v1/Pod': { typeModule: 'kubernetes-types/core/v1.js', typeName: 'Pod', model: Pod },
  'apps/v1/Deployment': {
    typeModule: 'kubernetes-types/apps/v1.js',
    typeName: 'Deployment',
    model: Deployment,
  },
  'apps/v1/StatefulSet': {
    typeModule: 'kubernetes-types/apps/v1.js',
    typeName: 'StatefulSet',
    model: StatefulSet,
  },
  'batch/v1/Job': { typeModule: 'kubernetes-types/batch/v1.js', typeName: 'Job', model: Job },
  'policy/v1/PodDisruptionBudget': {
    typeModule: 'kubernetes-types/policy/v1.js',
    typeName: 'PodDisruptionBudget',
    model: PodDisruptionBudget,
  },
  'autoscaling/v2/HorizontalPodAutoscaler': {
    typeModule: 'kubernetes-types/autoscaling/v2.js',
    typeName: 'HorizontalPodAutoscaler',
    model: HorizontalPodAutoscaler,
  },
  'networking.k8s.io/v1/Ingress': {
    typeModule: 'kubernetes-types/networking/v1.js',
    typeName: 'Ingress',
    model: Ingress,
  },
  'networking.k8s.io/v1/NetworkPolicy': {
    typeModule: 'kubernetes-types/networking/v1.js',
    typeName: 'NetworkPolicy',
    model: NetworkPolicy,
  },
  'gateway.networking.k8s.io/v1/HTTPRoute': {
    typeModule: GATEWAY_API_TYPES_MODULE,
    typeName: 'HTTPRoute',
  },
  // The interfaces, not the classes: a class type also demands the model's methods.
  'monitoring.coreos.com/v1/ServiceMonitor': {
    typeModule: `${MONITORING_TYPES}/ServiceMonitor`,
    typeName: 'IServiceMonitor',
    model: ServiceMonitor,
  },
  'monitoring.coreos.com/v1/PrometheusRule': {
    typeModule: `${MONITORING_TYPES}/PrometheusRule`,
    typeName: 'IPrometheusRule',
    model: PrometheusRule,
  },
};

/** The allow-list entry of an object, or undefined when its version or kind is not allowed. */
export function apiTypeOf(object: { apiVersion: string; kind: string }): ApiType | undefined {
  return ALLOWED_API_TYPES[`${object.apiVersion}/${object.kind}`];
}
