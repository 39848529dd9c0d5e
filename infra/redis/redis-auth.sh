#!/bin/sh
# Runs a Redis program with the stack's password, from REDIS_PASSWORD_FILE (a secret file) or
# REDIS_PASSWORD. docker-compose.yml starts the server and its health check through it:
#   redis-auth.sh redis-server <redis.conf>   the password reaches Redis on standard input, so it
#                                             never shows in the process list
#   redis-auth.sh redis-cli <command…>         authenticates with REDISCLI_AUTH
set -eu
if [ -n "${REDIS_PASSWORD_FILE:-}" ]; then
  password=$(cat "$REDIS_PASSWORD_FILE")
else
  password=${REDIS_PASSWORD:-}
fi
case $password in
  '' | *[!A-Za-z0-9_-]*)
    echo 'redis-auth.sh: set REDIS_PASSWORD or REDIS_PASSWORD_FILE (letters, digits, - and _)' >&2
    exit 78
    ;;
esac
if [ "$1" = redis-server ]; then
  exec redis-server - <<CONFIG
include $2
requirepass $password
CONFIG
fi
REDISCLI_AUTH=$password exec "$@"
