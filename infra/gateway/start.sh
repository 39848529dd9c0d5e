#!/bin/sh
# Starts the gateway and keeps it pointed at the replicas: resolves the render and relay names
# through the platform's DNS (Docker's, or the cluster's, with its search domains), writes the
# upstream blocks nginx.conf includes, runs nginx in the foreground, and re-resolves every few
# seconds; when a name's addresses change (a replica started, stopped, rescheduled or scaled) it
# rewrites the blocks and has nginx reload itself gracefully. Nobody reloads the gateway by hand.
#
# Why not nginx's own per-request resolution (a variable in proxy_pass): it cannot keep
# connections to the replicas open, and opening one per request costs throughput
# (bench/gateway/RESULTS.md).
#
#   GATEWAY_RENDER_ADDRESS  host:port of the render replicas (default render:3000)
#   GATEWAY_RELAY_ADDRESS   host:port of the relay replicas  (default relay:3100)
#   GATEWAY_DNS_INTERVAL    seconds between resolutions (default 2)
#   GATEWAY_TRUSTED_PROXIES addresses or CIDR ranges of a load balancer or ingress in front of
#                           the gateway, comma-separated (default none): their X-Forwarded-For
#                           names the client, so per-client limits see real clients
set -eu

render=${GATEWAY_RENDER_ADDRESS:-render:3000}
relay=${GATEWAY_RELAY_ADDRESS:-relay:3100}
interval=${GATEWAY_DNS_INTERVAL:-2}
trusted=$(printf '%s' "${GATEWAY_TRUSTED_PROXIES:-}" | tr ',' ' ')
dir=/tmp/nginx

refuse() {
  echo "gateway: $1" >&2
  exit 64
}

# Each value goes into nginx's configuration as it is: only the characters its form needs.
for address in "$render" "$relay"; do
  printf '%s' "$address" | grep -Eqx '[A-Za-z0-9.-]+:[0-9]{1,5}' ||
    refuse "'$address' is not host:port (GATEWAY_RENDER_ADDRESS, GATEWAY_RELAY_ADDRESS)"
done
printf '%s' "$interval" | grep -Eqx '[1-9][0-9]*' ||
  refuse "GATEWAY_DNS_INTERVAL '$interval' is not a whole number of seconds"
for proxy in $trusted; do
  printf '%s' "$proxy" | grep -Eqx '[0-9A-Fa-f.:]+(/[0-9]{1,3})?' ||
    refuse "GATEWAY_TRUSTED_PROXIES: '$proxy' is not an address or CIDR range"
done

# Who the client is: the peer, or behind trusted proxies the last address they did not add.
real_ip() {
  echo "# Written by start.sh from GATEWAY_TRUSTED_PROXIES."
  [ -n "$trusted" ] || return 0
  for proxy in $trusted; do echo "set_real_ip_from $proxy;"; done
  echo "real_ip_header X-Forwarded-For;"
  echo "real_ip_recursive on;"
}

# One upstream block: every IPv4 address the name has now, sorted so an unchanged set writes the
# same bytes. With none (no replica yet, or all gone) a placeholder marked down: nginx answers
# 502 until one appears.
upstream() { # name host:port least_conn|'' keepalive
  host=${2%:*}
  port=${2##*:}
  echo "upstream $1 {"
  [ -z "$3" ] || echo "  $3;"
  addresses=$(getent ahostsv4 "$host" | awk '{ print $1 }' | sort -u) || true
  for address in $addresses; do
    echo "  server $address:$port max_fails=1 fail_timeout=5s;"
  done
  [ -n "$addresses" ] || echo "  server 127.0.0.1:$port down;"
  echo "  keepalive $4;"
  echo "  keepalive_timeout 60s;"
  echo "}"
}

# Writes the blocks; true when they differ from what nginx runs.
resolve() {
  {
    echo "# Written by start.sh from DNS; edit the GATEWAY_* variables instead."
    upstream render "$render" least_conn 64
    upstream relay "$relay" '' 16
  } >"$dir/upstreams.next"
  if cmp -s "$dir/upstreams.next" "$dir/upstreams.conf"; then return 1; fi
  mv "$dir/upstreams.next" "$dir/upstreams.conf"
  echo "gateway: replicas now:" $(grep -o 'server [^ ]*' "$dir/upstreams.conf" | cut -d' ' -f2) >&2
}

follow() {
  while sleep "$interval"; do
    if resolve; then nginx -s reload 2>&1 || echo 'gateway: reload failed' >&2; fi
  done
}

mkdir -p "$dir"
real_ip >"$dir/real-ip.conf"
resolve || true
follow &
exec nginx -e stderr -g 'daemon off;'
