#!/usr/bin/env bash
# A two-node Docker Swarm on one machine, for the Swarm tests (e2e/swarm) and for trying
# docker-stack.yml by hand: node one is the machine's Docker engine, node two a second dockerd
# in a network namespace of its own, joined to the host by a veth pair.
#
#   cluster.sh up [--owner PID]     create it (cleaning up what an interrupted run left first)
#   cluster.sh down [--owner PID]   remove everything `up` made; with --owner, only while PID
#                                   still owns the cluster (the reaper's call after a crash)
#
# `up` prints the facts the harness needs as KEY=value lines (SECOND_DOCKER_HOST, NODE_ONE,
# NODE_TWO). It refuses to touch an engine that is already in a swarm it did not make. `down`
# stops the second daemon by its own pid only, and leaves the first engine as `up` found it: out
# of any swarm, without the stacks' containers, volumes, or the docker_gwbridge network swarm
# mode added.
set -Eeuo pipefail

NETNS=strata-swarm
HOST_VETH=strata-sw0
NETNS_VETH=strata-sw1
# A /30 and an address pool that no Docker network here uses (Docker's defaults are 172.17-31/16
# and 192.168/20s).
HOST_ADDRESS=10.213.0.1
NETNS_ADDRESS=10.213.0.2
ADDRESS_POOL=10.214.0.0/16
RUN_DIR=/run/strata-swarm
DATA_ROOT=/var/lib/strata-swarm
SOCKET=unix://$RUN_DIR/docker.sock
PIDFILE=$RUN_DIR/dockerd.pid
STATE=$RUN_DIR/state
SECOND_HOSTNAME=strata-swarm-two
# Stacks of this harness are named strata-swarm-<pid>; their local volumes carry the name.
STACK_PREFIX=strata-swarm-

say() { echo "cluster: $*" >&2; }
fail() {
  say "$*"
  exit 1
}
two() { docker -H "$SOCKET" "$@"; }
state_of() { [ -f "$STATE" ] && sed -n "s/^$1=//p" "$STATE" || true; }

# The second daemon's pid, only when the process is the dockerd this script started (its
# command line names our pid file): never any other dockerd.
second_daemon_pid() {
  local pid
  pid=$(cat "$PIDFILE" 2>/dev/null) || return 0
  [ -n "$pid" ] && tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -q -- "--pidfile $PIDFILE" &&
    echo "$pid"
  return 0
}

# True when the first engine is in the swarm this script made (it advertises our veth address).
first_engine_in_our_swarm() {
  [ "$(docker info -f '{{.Swarm.LocalNodeState}}')" != inactive ] &&
    [ "$(docker info -f '{{.Swarm.NodeAddr}}')" = "$HOST_ADDRESS" ]
}

# Every service of our swarm (stacks and any other), so that node one's task containers stop
# before the swarm is left.
remove_services() {
  local stacks stack
  stacks=$(docker stack ls --format '{{.Name}}' 2>/dev/null || true)
  for stack in $stacks; do docker stack rm "$stack" >/dev/null || true; done
  docker service ls -q | xargs -r docker service rm >/dev/null 2>&1 || true
  # Task containers go once their services are removed; volumes can only go after them.
  for _ in $(seq 1 60); do
    [ -z "$(docker ps -aq --filter label=com.docker.swarm.service.id)" ] && break
    sleep 1
  done
}

down() {
  local owner=${1:-} pid
  if [ -n "$owner" ] && [ -f "$STATE" ] && [ "$(state_of owner)" != "$owner" ]; then
    say "the cluster belongs to another run now; leaving it"
    return 0
  fi
  if first_engine_in_our_swarm; then
    remove_services
    [ -S "$RUN_DIR/docker.sock" ] && two swarm leave --force >/dev/null 2>&1 || true
    docker swarm leave --force >/dev/null
  fi
  # The stacks' local volumes on node one (node two's go with its data root).
  docker volume ls -q --filter label=com.docker.stack.namespace |
    grep "^$STACK_PREFIX" | xargs -r docker volume rm >/dev/null 2>&1 || true
  if [ "$(state_of gwbridge)" = created ]; then
    docker network rm docker_gwbridge >/dev/null 2>&1 || true
  fi
  pid=$(second_daemon_pid)
  if [ -n "$pid" ]; then
    kill "$pid"
    for _ in $(seq 1 60); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
    kill -0 "$pid" 2>/dev/null && kill -9 "$pid"
  fi
  # Whatever the daemon left mounted under its directories (deepest first), then the directories.
  for dir in "$RUN_DIR" "$DATA_ROOT"; do
    awk -v dir="$dir" '$2 == dir || index($2, dir "/") == 1 { print $2 }' /proc/self/mounts |
      sort -r | xargs -r -n1 umount -l 2>/dev/null || true
    rm -rf --one-file-system "$dir"
  done
  ip netns del "$NETNS" 2>/dev/null || true
  # The veth goes with the namespace, once the kernel has finished with it.
  for _ in $(seq 1 60); do ip link show "$HOST_VETH" >/dev/null 2>&1 || break; sleep 0.5; done
  ip link del "$HOST_VETH" 2>/dev/null || true
}

up() {
  [ "$(id -u)" = 0 ] || fail "run as root: it makes a network namespace, a veth pair and a second dockerd"
  local owner=${1:-$PPID} previous token
  previous=$(state_of owner)
  if [ -n "$previous" ] && [ "$previous" != "$owner" ] && kill -0 "$previous" 2>/dev/null; then
    fail "another run (pid $previous) is using the cluster; wait for it or run: $0 down"
  fi
  if [ "$(docker info -f '{{.Swarm.LocalNodeState}}')" != inactive ] && ! first_engine_in_our_swarm; then
    fail "the Docker engine is already in a swarm this harness did not create; refusing to change it (docker info: Swarm)"
  fi
  down
  say "creating the second node (network namespace $NETNS, dockerd on $SOCKET)"
  mkdir -p "$RUN_DIR"
  local gwbridge=created
  docker network inspect docker_gwbridge >/dev/null 2>&1 && gwbridge=existed
  printf 'owner=%s\ngwbridge=%s\n' "$owner" "$gwbridge" >"$STATE"

  ip netns add "$NETNS"
  ip link add "$HOST_VETH" type veth peer name "$NETNS_VETH"
  ip link set "$NETNS_VETH" netns "$NETNS"
  ip addr add "$HOST_ADDRESS/30" dev "$HOST_VETH"
  ip link set "$HOST_VETH" up
  ip -n "$NETNS" addr add "$NETNS_ADDRESS/30" dev "$NETNS_VETH"
  ip -n "$NETNS" link set "$NETNS_VETH" up
  ip -n "$NETNS" link set lo up
  # No default route in the namespace: a worker that can reach no registry uses its local image
  # at once instead of trying to pull first. `ip netns exec` would remount /sys and trip over the
  # devices cgroup; nsenter only switches the network namespace. --bridge=none is safe here only
  # because this namespace has no docker0 of the first engine to delete.
  local driver
  driver=$(docker info -f '{{.Driver}}')
  # Its own UTS namespace and hostname too, so `docker node ls` and `docker service ps` tell the
  # nodes apart.
  DOCKER_SERVICE_PREFER_OFFLINE_IMAGE=1 setsid nsenter --net="/var/run/netns/$NETNS" \
    unshare --uts sh -c 'hostname "$0" && exec "$@"' "$SECOND_HOSTNAME" \
    dockerd --data-root "$DATA_ROOT" --exec-root "$RUN_DIR/exec" --pidfile "$PIDFILE" \
    -H "$SOCKET" --bridge=none --iptables=false --storage-driver="$driver" \
    >"$RUN_DIR/dockerd.log" 2>&1 </dev/null &
  for _ in $(seq 1 120); do two version >/dev/null 2>&1 && break; sleep 0.5; done
  two version >/dev/null 2>&1 || fail "the second dockerd did not start: $(tail -n 20 "$RUN_DIR/dockerd.log")"

  docker swarm init --advertise-addr "$HOST_ADDRESS" --listen-addr "$HOST_ADDRESS:2377" \
    --default-addr-pool "$ADDRESS_POOL" >/dev/null
  token=$(docker swarm join-token -q worker)
  two swarm join --token "$token" --advertise-addr "$NETNS_ADDRESS" \
    --listen-addr "$NETNS_ADDRESS:2377" "$HOST_ADDRESS:2377" >/dev/null
  local one_id two_id
  one_id=$(docker info -f '{{.Swarm.NodeID}}')
  two_id=$(two info -f '{{.Swarm.NodeID}}')
  # The stack places by labels, never by hostname (docs/swarm.md, "Label the nodes").
  docker node update --label-add strata.zone=a --label-add strata.edge=true \
    --label-add strata.stateful=true "$one_id" >/dev/null
  docker node update --label-add strata.zone=b "$two_id" >/dev/null
  for _ in $(seq 1 60); do
    [ "$(docker node inspect -f '{{.Status.State}}' "$two_id")" = ready ] && break
    sleep 0.5
  done
  echo "SECOND_DOCKER_HOST=$SOCKET"
  echo "NODE_ONE=$one_id"
  echo "NODE_TWO=$two_id"
  echo "NODE_TWO_HOSTNAME=$SECOND_HOSTNAME"
}

command=${1:-}
owner=
[ "${2:-}" = --owner ] && owner=${3:?--owner needs a pid}
case $command in
  up) up "$owner" ;;
  down) down "$owner" ;;
  *) fail "usage: $0 up|down [--owner PID]" ;;
esac
