{{/* Pieces the monitoring objects share (servicemonitors.yaml, prometheusrule.yaml,
grafana-dashboards.yaml). */}}

{{/* A monitoring object's labels: the chart's, plus the ones its Prometheus or Grafana selects it
by (.extra, from monitoring.<kind>.labels). On a clash the chart's win, so the selectors the
checks rely on stay as they are. */}}
{{- define "strata.monitoringLabels" -}}
{{- $labels := include "strata.labels" . | fromYaml -}}
{{- toYaml (merge $labels (.extra | default dict)) -}}
{{- end -}}

{{/* The components whose metrics Prometheus scrapes, each with the Service port that serves
/metrics: render and relay on their HTTP port, data on its own metrics listener. */}}
{{- define "strata.metricsPorts" -}}
render: http
data: metrics
relay: http
{{- end -}}
