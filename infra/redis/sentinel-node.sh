#!/bin/sh
# Starts one node of the Sentinel variant (docker-compose.sentinel.yml) with the stack's password,
# never in argv. Run through redis-auth.sh, which checks the password (REDIS_PASSWORD or
# REDIS_PASSWORD_FILE) and hands it over as REDISCLI_AUTH:
#   redis-auth.sh sh sentinel-node.sh data <redis.conf> <first master> <sentinel…>
#       a data node: a replica of the current master, or the master if that is this container;
#       requirepass and masterauth (Sentinel may turn any master into a replica) on stdin, and
#       /run/redis-data (a tmpfs of its own) as the directory a full synchronisation writes to
#   redis-auth.sh sh sentinel-node.sh sentinel <sentinel.conf> <first master> <sentinel…>
#       a sentinel: the template copied to /data (Sentinel rewrites its file) with the current
#       master's address, requirepass and the master's auth-pass
# The current master is the one a running sentinel names (after a failover it is not the first
# one), else the first master's address. Addresses, not names, go to Redis and Sentinel: both
# resolve names synchronously, and on the stack's internal network the lookup of a killed
# container's name blocked them for seconds at a time (a replica too busy to be promoted, a
# sentinel kept in TILT mode).
set -eu
password=${REDISCLI_AUTH:?run through redis-auth.sh}
unset REDISCLI_AUTH
role=$1
file=$2
first_master=$3
shift 3

address_of() {
  getent hosts "$1" | cut -d ' ' -f 1 | head -n 1
}

master=''
for sentinel in "$@"; do
  master=$(REDISCLI_AUTH=$password timeout 2 redis-cli -h "$sentinel" -p 26379 \
    sentinel get-master-addr-by-name strata 2>/dev/null | head -n 1) || master=''
  if [ -n "$master" ]; then break; fi
done
if [ -z "$master" ]; then master=$(address_of "$first_master"); fi
if [ -z "$master" ]; then
  echo "sentinel-node.sh: no sentinel names the master and $first_master has no address" >&2
  exit 69
fi

case $role in
  data)
    replica_of="replicaof $master 6379"
    if [ "$master" = "$(address_of "$(cat /etc/hostname)")" ]; then replica_of=''; fi
    exec redis-server - <<CONFIG
include $file
dir /run/redis-data
requirepass $password
masterauth $password
$replica_of
CONFIG
    ;;
  sentinel)
    umask 077
    sed "s/MASTER_ADDRESS/$master/" "$file" - > /data/sentinel.conf <<CONFIG
requirepass $password
sentinel auth-pass strata $password
CONFIG
    exec redis-server /data/sentinel.conf --sentinel
    ;;
esac
echo "sentinel-node.sh: the first argument is data or sentinel, not $role" >&2
exit 64
