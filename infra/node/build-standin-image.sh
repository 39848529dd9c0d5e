#!/usr/bin/env bash
# Builds a STAND-IN for the official `node:<major>-bookworm-slim` image the service Dockerfiles
# start FROM, for machines without a registry (infra/node/Dockerfile): the given node binary, the
# host's npm and Debian's libatomic1 on `debian:bookworm-slim`. The machine's docker-offline.sh
# builds such stand-ins too, but without libatomic1, which node's official Linux build needs from
# Node 26 on. Where a registry is reachable, `docker pull` the real image instead.
#
# Idempotent: when an image of that name already exists (the real one, pulled, or a stand-in
# built before), it does nothing.
#   bash infra/node/build-standin-image.sh node_modules/node/bin/node
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"

node_bin="$(readlink -f "${1:?usage: build-standin-image.sh <node binary>}")"
version="$("$node_bin" -p 'process.versions.node')"
image="node:${version%%.*}-bookworm-slim"
if docker image inspect "$image" >/dev/null 2>&1; then
  echo "build-standin-image: $image exists; nothing to build"
  exit 0
fi

ctx="$(mktemp -d)"
trap 'rm -rf "$ctx"' EXIT
cp "$node_bin" "$ctx/node"
cp -a "$(dirname "$(dirname "$(readlink -f "$(command -v npm)")")")" "$ctx/npm"
cp "$here/Dockerfile" "$here/docker-entrypoint.sh" "$ctx/"
ca="${NODE_EXTRA_CA_CERTS:-$(npm config get cafile 2>/dev/null | grep -v '^null$' || true)}"
if [ -n "$ca" ] && [ -r "$ca" ]; then cp "$ca" "$ctx/extra-ca.crt"; else : >"$ctx/extra-ca.crt"; fi

echo "build-standin-image: building a STAND-IN for $image (node $version, not the official image)"
# The legacy builder (no BuildKit here) and the host's network for apt.
DOCKER_BUILDKIT=0 docker build --network host --quiet --build-arg "NODE_VERSION=$version" \
  -t "$image" "$ctx"
echo "build-standin-image: $image is a stand-in: node $(docker run --rm "$image" --version)"
