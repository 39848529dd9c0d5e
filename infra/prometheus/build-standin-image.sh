#!/usr/bin/env bash
# Builds a STAND-IN for the official Prometheus image that docker-compose.yml names
# (`prom/prometheus:<tag>` of the `prometheus` service), for machines without a registry: Debian's
# prometheus package (2.42) laid out like the official image (infra/prometheus/Dockerfile). The
# result is NOT the official image nor the version its tag says; it only lets the observability
# profile run here. Where a registry is reachable, `docker pull` the real image instead.
#
# Idempotent: when an image with that name and tag already exists (the real one, pulled, or a
# stand-in built before), it does nothing.
#   bash infra/prometheus/build-standin-image.sh
set -euo pipefail
cd "$(dirname "$0")/../.."

# The tag is written once, in docker-compose.yml.
image=$(grep -oE 'image: prom/prometheus:[^[:space:]]+' docker-compose.yml | head -n 1 | cut -d' ' -f2)
if [ -z "$image" ]; then
  echo "build-standin-image: no prom/prometheus image in docker-compose.yml" >&2
  exit 1
fi

if docker image inspect "$image" >/dev/null 2>&1; then
  echo "build-standin-image: $image exists; nothing to build"
  exit 0
fi

echo "build-standin-image: building a STAND-IN for $image from Debian's prometheus package" \
  "(Prometheus 2.42, not the official image)"
# The legacy builder (no BuildKit here) and the host's network for apt; no build context.
DOCKER_BUILDKIT=0 docker build --network host --quiet -t "$image" - <infra/prometheus/Dockerfile
echo "build-standin-image: $image is a stand-in: $(docker run --rm "$image" --version 2>&1 | head -n 1)"
