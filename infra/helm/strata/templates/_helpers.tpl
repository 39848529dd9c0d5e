{{/* Names, labels and the pieces every workload shares. */}}

{{- define "strata.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "strata.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 40 | trimSuffix "-" -}}
{{- else -}}
{{- $name := default .Chart.Name .Values.nameOverride -}}
{{- if contains $name .Release.Name -}}
{{- .Release.Name | trunc 40 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name $name | trunc 40 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{/* The name of one component's objects: <fullname>-<component>. */}}
{{- define "strata.componentName" -}}
{{- printf "%s-%s" (include "strata.fullname" .root) .component -}}
{{- end -}}

{{- define "strata.selectorLabels" -}}
app.kubernetes.io/name: {{ include "strata.name" .root }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .component }}
{{- end -}}

{{- define "strata.labels" -}}
{{ include "strata.selectorLabels" . }}
app.kubernetes.io/part-of: strata
app.kubernetes.io/version: {{ .root.Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .root.Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .root.Chart.Name .root.Chart.Version }}
{{- with .root.Values.commonLabels }}
{{ toYaml . }}
{{- end }}
{{- end -}}

{{/* A component's fully qualified Service name: nginx resolves no search domains. */}}
{{- define "strata.serviceHost" -}}
{{- printf "%s.%s.svc.%s" (include "strata.componentName" .) .root.Release.Namespace .root.Values.clusterDomain -}}
{{- end -}}

{{/* repository:tag, or repository@digest when a digest is set (the digest wins). */}}
{{- define "strata.image" -}}
{{- $repository := .image.repository -}}
{{- with .root.Values.global.imageRegistry }}{{ $repository = printf "%s/%s" . $repository }}{{ end -}}
{{- if .image.digest -}}
{{- printf "%s@%s" $repository .image.digest -}}
{{- else -}}
{{- printf "%s:%s" $repository (default .root.Chart.AppVersion .image.tag) -}}
{{- end -}}
{{- end -}}

{{- define "strata.secretName" -}}
{{- default (printf "%s-secrets" (include "strata.fullname" .)) .Values.secrets.existingSecret -}}
{{- end -}}

{{/* Pod-level hardening: a numeric non-root user (the images name theirs, which the kubelet
cannot check), its group for mounted volumes and secret files, the runtime's seccomp profile. */}}
{{- define "strata.podSecurityContext" -}}
runAsNonRoot: true
runAsUser: {{ .uid }}
runAsGroup: {{ .uid }}
fsGroup: {{ .uid }}
fsGroupChangePolicy: OnRootMismatch
seccompProfile:
  type: RuntimeDefault
{{- end -}}

{{- define "strata.containerSecurityContext" -}}
runAsNonRoot: true
allowPrivilegeEscalation: false
readOnlyRootFilesystem: true
privileged: false
capabilities:
  drop: [ALL]
seccompProfile:
  type: RuntimeDefault
{{- end -}}

{{/* Scheduling of a long-running component: spread over nodes, plus the user's constraints. */}}
{{- define "strata.scheduling" -}}
{{- $values := .values -}}
{{- with .root.Values.global.imagePullSecrets }}
imagePullSecrets:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with $values.nodeSelector }}
nodeSelector:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with $values.tolerations }}
tolerations:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with $values.affinity }}
affinity:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- if and $values.topologySpread $values.topologySpread.enabled }}
topologySpreadConstraints:
  - topologyKey: kubernetes.io/hostname
    maxSkew: {{ $values.topologySpread.maxSkew }}
    whenUnsatisfiable: {{ $values.topologySpread.whenUnsatisfiable }}
    labelSelector:
      matchLabels:
        {{- include "strata.selectorLabels" . | nindent 8 }}
{{- end }}
{{- end -}}

{{/* The three probes of a container, from the component's values. */}}
{{- define "strata.probes" -}}
{{- with .startupProbe }}
startupProbe:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .readinessProbe }}
readinessProbe:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .livenessProbe }}
livenessProbe:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- end -}}

{{/* Prometheus scrape annotations for a pod serving GET /metrics on .port. */}}
{{- define "strata.scrapeAnnotations" -}}
{{- if .root.Values.monitoring.scrapeAnnotations }}
prometheus.io/scrape: "true"
prometheus.io/port: {{ .port | quote }}
prometheus.io/path: /metrics
{{- end }}
{{- end -}}

{{/* The Secret's keys a pod reads, as files under /run/secrets/strata (mode 0440, group of the
pod's user). A key missing from the Secret stops the pod with an event naming it. */}}
{{- define "strata.secretVolume" -}}
- name: secrets
  secret:
    secretName: {{ include "strata.secretName" .root }}
    defaultMode: 0440
    items:
      {{- range .keys }}
      - key: {{ . }}
        path: {{ . }}
      {{- end }}
{{- end -}}

{{- define "strata.secretMount" -}}
- name: secrets
  mountPath: /run/secrets/strata
  readOnly: true
{{- end -}}

{{/* <NAME>_FILE variables for the Secret's keys (packages/config reads any variable this way). */}}
{{- define "strata.secretFileEnv" -}}
{{- range .keys }}
- name: {{ . }}_FILE
  value: /run/secrets/strata/{{ . }}
{{- end }}
{{- end -}}

{{/* Where the render and data services send their own reports: the gateway's :8081. */}}
{{- define "strata.telemetryEnv" -}}
- name: RELAY_URL
  value: {{ printf "http://%s:8081" (include "strata.serviceHost" (dict "root" .root "component" "gateway-internal")) | quote }}
{{- with .root.Values.telemetry.sentryDsn }}
- name: SENTRY_DSN
  value: {{ . | quote }}
{{- end }}
- name: SENTRY_ENVIRONMENT
  value: {{ .root.Values.telemetry.environment | quote }}
- name: SENTRY_TRACES_SAMPLE_RATE
  value: {{ .root.Values.telemetry.tracesSampleRate | quote }}
{{- end -}}

{{/* PUBLIC_ORIGINS: the values, else the ingress hosts and httpRoute hostnames over https. */}}
{{- define "strata.publicOrigins" -}}
{{- $origins := .Values.render.publicOrigins -}}
{{- if not $origins -}}
{{- if .Values.ingress.enabled }}{{ range .Values.ingress.hosts }}{{ $origins = append $origins (printf "https://%s" .host) }}{{ end }}{{ end -}}
{{- if .Values.httpRoute.enabled }}{{ range .Values.httpRoute.hostnames }}{{ $origins = append $origins (printf "https://%s" .) }}{{ end }}{{ end -}}
{{- end -}}
{{- $origins | uniq | join "," -}}
{{- end -}}

{{/* Which Secret keys a release needs: Redis's only with a shared segment cache. */}}
{{- define "strata.renderSecretKeys" -}}
{{- if and .Values.render.segmentCache.enabled .Values.render.segmentCache.shared -}}
ACTION_SALT,{{ include "strata.redisSecretKey" . }}
{{- else -}}
ACTION_SALT
{{- end -}}
{{- end -}}

{{/* Whether the bundled Redis runs through Sentinel. */}}
{{- define "strata.redisSentinel" -}}
{{- if and .Values.redis.enabled .Values.redis.sentinel.enabled }}true{{ end -}}
{{- end -}}

{{/* The Secret key a Redis client reads: the URL, or with Sentinel the password alone. */}}
{{- define "strata.redisSecretKey" -}}
{{- if include "strata.redisSentinel" . }}REDIS_PASSWORD{{ else }}REDIS_URL{{ end -}}
{{- end -}}

{{/* A StatefulSet pod's stable name: <pod>.<headless Service>, fully qualified. */}}
{{- define "strata.podHost" -}}
{{- $service := include "strata.serviceHost" (dict "root" .root "component" .component) -}}
{{- printf "%s-%d.%s" (include "strata.componentName" (dict "root" .root "component" .component)) (int .ordinal) $service -}}
{{- end -}}

{{/* The sentinels' stable names, space-separated. */}}
{{- define "strata.sentinelHosts" -}}
{{- $hosts := list -}}
{{- range $ordinal := until (int .Values.redis.sentinel.sentinels) -}}
{{- $hosts = append $hosts (include "strata.podHost" (dict "root" $ "component" "redis-sentinel" "ordinal" $ordinal)) -}}
{{- end -}}
{{- join " " $hosts -}}
{{- end -}}

{{/* A Sentinel-variant node's own stable DNS name (redis.sentinel.hostnames), for
sentinel-node.sh: the pod's name under its StatefulSet's headless Service. */}}
{{- define "strata.sentinelNodeEnv" -}}
{{- if .root.Values.redis.sentinel.hostnames }}
- name: POD_NAME
  valueFrom: { fieldRef: { fieldPath: metadata.name } }
- name: REDIS_NODE_NAME
  value: {{ printf "$(POD_NAME).%s" (include "strata.serviceHost" (dict "root" .root "component" .component)) | quote }}
{{- end }}
{{- end -}}

{{/* A Redis client's settings besides its Secret key (strata.redisSecretKey): the sentinels
that name the master, when the bundled Redis runs through Sentinel. */}}
{{- define "strata.redisClientEnv" -}}
{{- if include "strata.redisSentinel" . }}
- name: REDIS_SENTINELS
  value: {{ include "strata.sentinelHosts" . | replace " " "," | quote }}
- { name: REDIS_SENTINEL_MASTER, value: strata }
- { name: REDIS_SENTINEL_PASSWORD_FILE, value: /run/secrets/strata/REDIS_PASSWORD }
{{- end }}
{{- end -}}

{{/* A preStop hook that keeps the container serving while it is taken out of rotation. */}}
{{- define "strata.preStop" -}}
{{- if gt (int .) 0 }}
lifecycle:
  preStop:
    exec:
      command: ["sleep", "{{ . }}"]
{{- end }}
{{- end -}}

{{/* The data service's environment: the data Deployment's and the migration Job's. */}}
{{- define "strata.dataEnv" -}}
{{- $values := .root.Values.data -}}
- { name: DATA_HOST, value: 0.0.0.0 }
- { name: DATA_PORT, value: "50051" }
- { name: DATA_METRICS_PORT, value: "9464" }
- name: DATABASE_POOL_SIZE
  value: {{ $values.poolSize | quote }}
- name: DATA_SEED
  value: {{ $values.seed | quote }}
- name: LOG_LEVEL
  value: {{ $values.logLevel | quote }}
{{ include "strata.telemetryEnv" . }}
{{- include "strata.secretFileEnv" (dict "keys" (list "PAGE_TOKEN_SECRET" "DATABASE_URL")) }}
{{- with $values.extraEnv }}
{{ toYaml . }}
{{- end }}
{{- end -}}

{{/* A NetworkPolicy peer: the pods of one component of this release. */}}
{{- define "strata.peer" -}}
- podSelector:
    matchLabels:
      {{- include "strata.selectorLabels" . | nindent 6 }}
{{- end -}}

{{/* An ingress rule letting networkPolicy.metricsFrom scrape .port; nothing when it is empty. */}}
{{- define "strata.metricsIngress" -}}
{{- with .root.Values.networkPolicy.metricsFrom }}
- ports: [{ port: {{ $.port }}, protocol: TCP }]
  from:
    {{- toYaml . | nindent 4 }}
{{- end }}
{{- end -}}

{{/* Spreads a component's pods over nodes where it can: a node's loss takes one of them. */}}
{{- define "strata.spreadOverNodes" -}}
affinity:
  podAntiAffinity:
    preferredDuringSchedulingIgnoredDuringExecution:
      - weight: 100
        podAffinityTerm:
          topologyKey: kubernetes.io/hostname
          labelSelector:
            matchLabels:
              {{- include "strata.selectorLabels" . | nindent 14 }}
{{- end -}}
