#!/usr/bin/env bash
# Builds STAND-INS for the three official exporter images that docker-compose.yml names in the
# `observability` profile, for machines without a registry: Debian's exporter packages laid out
# like the official images (the Dockerfiles beside this script). The results are NOT the official
# images nor the versions their tags say; they only let the profile run here. Where a registry is
# reachable, `docker pull` the real images instead.
#
# Idempotent: an image whose name and tag already exist (the real one, pulled, or a stand-in built
# before) is left alone.
#   bash infra/exporters/build-standin-images.sh
set -euo pipefail
cd "$(dirname "$0")/../.."

# repository (as docker-compose.yml names it) | Dockerfile | what the stand-in is
standins=(
  "nginx/nginx-prometheus-exporter|nginx-exporter.Dockerfile|Debian's prometheus-nginx-exporter 0.11"
  "oliver006/redis_exporter|redis-exporter.Dockerfile|Debian's prometheus-redis-exporter 1.45"
  "quay.io/prometheuscommunity/postgres-exporter|postgres-exporter.Dockerfile|Debian's prometheus-postgres-exporter 0.11"
)

for standin in "${standins[@]}"; do
  IFS='|' read -r repository dockerfile origin <<<"$standin"
  # The tag is written once, in docker-compose.yml.
  image=$(grep -oE "image: ${repository}:[^[:space:]]+" docker-compose.yml | head -n 1 | cut -d' ' -f2)
  if [ -z "$image" ]; then
    echo "build-standin-images: no ${repository} image in docker-compose.yml" >&2
    exit 1
  fi
  if docker image inspect "$image" >/dev/null 2>&1; then
    echo "build-standin-images: $image exists; nothing to build"
    continue
  fi
  echo "build-standin-images: building a STAND-IN for $image from $origin (not the official image)"
  # The legacy builder (no BuildKit here) and the host's network for apt; no build context.
  DOCKER_BUILDKIT=0 docker build --network host --quiet -t "$image" - <"infra/exporters/$dockerfile"
  echo "build-standin-images: $image is a stand-in:" \
    "$(docker run --rm "$image" --version 2>&1 | head -n 1)"
done
