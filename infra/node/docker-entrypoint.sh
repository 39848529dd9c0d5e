#!/bin/sh
set -e
# As the official image's entrypoint: a first argument that is a flag or no command goes to node.
if [ "${1#-}" != "${1}" ] || [ -z "$(command -v "${1}")" ] || { [ -f "${1}" ] && ! [ -x "${1}" ]; }; then
  set -- node "$@"
fi
exec "$@"
