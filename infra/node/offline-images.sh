#!/usr/bin/env bash
# A container engine and the base images the stack's Dockerfiles and compose file name, on a
# machine without a registry: the machine's docker-offline.sh starts the engine and builds its
# stand-ins, and the node image for the given binary's release line is this folder's
# (build-standin-image.sh says why), built first so docker-offline.sh keeps it.
#   bash infra/node/offline-images.sh node_modules/node/bin/node <path of docker-offline.sh>
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
node_bin="${1:?usage: offline-images.sh <node binary> <docker-offline.sh>}"
offline="${2:?usage: offline-images.sh <node binary> <docker-offline.sh>}"
major="$("$node_bin" -p 'process.versions.node.split(".")[0]')"
# The engine and Debian's base (`debian:bookworm-slim`) the node stand-in is built on.
IMAGES=base bash "$offline"
bash "$here/build-standin-image.sh" "$node_bin"
# Everything else; the node image of this line exists now, and its reaper stand-in runs on it.
NODE_MAJORS="$major" bash "$offline"
