#!/bin/sh
# Starts one node of the Sentinel variant (docker-compose.sentinel.yml, the Helm chart's
# redis.sentinel) with the stack's password, never in argv. Run through redis-auth.sh, which
# checks the password (REDIS_PASSWORD or REDIS_PASSWORD_FILE) and hands it over as REDISCLI_AUTH:
#   redis-auth.sh sh sentinel-node.sh data <redis.conf> <first master> <sentinel…>
#       a data node: a replica of the current master, or the master if that is this node;
#       requirepass and masterauth (Sentinel may turn any master into a replica) on stdin, and
#       /run/redis-data (a tmpfs of its own) as the directory a full synchronisation writes to
#   redis-auth.sh sh sentinel-node.sh sentinel <sentinel.conf> <first master> <sentinel…>
#       a sentinel: the template copied to /data (Sentinel rewrites its file) with the current
#       master, requirepass and the master's auth-pass
# The current master is the one a running sentinel names (after a failover it is not the first
# one), else the first master.
#
# Two modes. Addresses (compose): names are resolved here and only addresses reach Redis and
# Sentinel, which resolve names synchronously: on the compose network the lookup of a killed
# container's name timed out (Docker's DNS forwards unknown names to the host's resolvers) and
# blocked them for seconds (a replica too busy to be promoted, a sentinel kept in TILT mode).
# Names (the chart: REDIS_NODE_NAME is this node's stable DNS name, which cluster DNS answers at
# once, NXDOMAIN while the pod is gone): nodes and sentinels announce their names, so a pod
# replaced with a new address keeps its place in the sentinels' tables.
set -eu
password=${REDISCLI_AUTH:?run through redis-auth.sh}
unset REDISCLI_AUTH
role=$1
file=$2
first_master=$3
shift 3
name=${REDIS_NODE_NAME:-}

address_of() {
  getent hosts "$1" | cut -d ' ' -f 1 | head -n 1
}

# The first answer of a sentinel to `sentinel <arguments>`, empty when none answers. Error
# replies (NOAUTH…, LOADING…) have spaces; names, addresses and the replicas' fields have none.
ask_sentinels() {
  for sentinel in $sentinels; do
    answer=$(REDISCLI_AUTH=$password timeout 2 redis-cli -h "$sentinel" -p 26379 \
      sentinel "$@" 2>/dev/null) || answer=''
    case $answer in '' | *' '*) ;; *)
      printf '%s\n' "$answer"
      return
      ;;
    esac
  done
}
sentinels=$*

current_master() {
  ask_sentinels get-master-addr-by-name strata | head -n 1
}

# Whether the sentinels know a replica in good health (flags "slave", or "slave,promoted" while
# they are promoting it: it already answers as master, they do not name it yet), one they can
# promote or are promoting. `sentinel replicas` answers field/value lines.
promotable_replica() {
  ask_sentinels replicas strata | awk 'previous == "flags" && /^slave(,promoted)?$/ { found = 1 }
    { previous = $0 } END { exit !found }'
}

master=$(current_master)
if [ -n "$name" ]; then
  if [ -z "$master" ]; then master=$first_master; fi
  # Named as master while starting: this pod was the master and has just been replaced (empty,
  # a cache). While the sentinels can promote a replica that still holds the data, let them, then
  # replicate it. Started at once it would either stay master (the replica then copies its empty
  # data) or, promoted past meanwhile, be a second master until Sentinel demotes it. Bounded: a
  # failover that has not happened after 30 s will not (down-after 5 s + the vote).
  if [ "$role" = data ] && [ "$master" = "$name" ]; then
    waited=0
    while [ "$master" = "$name" ] && [ "$waited" -lt 30 ] && promotable_replica; do
      sleep 1
      waited=$((waited + 1))
      master=$(current_master)
      if [ -z "$master" ]; then master=$name; fi
    done
    echo "sentinel-node.sh: the sentinels name $master as master (waited ${waited} s)" >&2
  fi
else
  if [ -z "$master" ]; then master=$(address_of "$first_master"); fi
  if [ -z "$master" ]; then
    echo "sentinel-node.sh: no sentinel names the master and $first_master has no address" >&2
    exit 69
  fi
fi

case $role in
  data)
    replica_of="replicaof $master 6379"
    announce=''
    if [ -n "$name" ]; then
      if [ "$master" = "$name" ]; then replica_of=''; fi
      announce="replica-announce-ip $name"
    elif [ "$master" = "$(address_of "$(cat /etc/hostname)")" ]; then
      replica_of=''
    fi
    exec redis-server - <<CONFIG
include $file
dir /run/redis-data
requirepass $password
masterauth $password
$announce
$replica_of
CONFIG
    ;;
  sentinel)
    resolve=no
    if [ -n "$name" ]; then
      # Sentinel refuses a monitor line whose name does not resolve: wait for cluster DNS to
      # publish the master (a pod that is starting).
      waited=0
      until [ -n "$(address_of "$master")" ]; do
        if [ "$waited" -ge 60 ]; then
          echo "sentinel-node.sh: the master $master has no address" >&2
          exit 69
        fi
        sleep 1
        waited=$((waited + 1))
      done
      resolve=yes
    fi
    umask 077
    sed -e "s/MASTER_ADDRESS/$master/" \
      -e "s/^sentinel resolve-hostnames no\$/sentinel resolve-hostnames $resolve/" \
      "$file" - > /data/sentinel.conf <<CONFIG
requirepass $password
sentinel auth-pass strata $password
${name:+sentinel announce-hostnames yes
sentinel announce-ip $name}
CONFIG
    exec redis-server /data/sentinel.conf --sentinel
    ;;
esac
echo "sentinel-node.sh: the first argument is data or sentinel, not $role" >&2
exit 64
