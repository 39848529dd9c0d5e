#!/usr/bin/env bash
# The render service as the candidate of the anchor benchmark (the anchors directory named by
# ANCHORS, see bench/anchors/README.md), beside Next.js, the minimal Fastify + React renderer and raw Fastify,
# with the data service behind it (PGlite in memory, no cache).
#
#   bench/render/run.sh                     # full run: npm ci + next builds in the anchors, ~7 min
#   SKIP_INSTALL=1 SKIP_BUILD=1 bench/render/run.sh   # anchors already installed and built
#
# Steps: build Strata (npm run build) -> compute the navigation request's _p hash -> start the
# data service in its own process group (bench/render/lib/drive.mjs) -> run the anchors' run.sh
# with CANDIDATE_CMD starting only the render service -> stop the data service -> write the
# data service's CPU per request (data-cpu.json) and the goal table (goals.md).
#
# Knobs (environment), passed through to the anchors' run.sh:
#   ROUNDS (3) DURATION (10) WARMUP (3) CONNECTIONS (50) TARGETS (next,fastify-react,raw,candidate)
#   SKIP_INSTALL=1 (no npm ci in the anchors)  SKIP_BUILD=1 (no next builds)
# Own knobs:
#   NAME (UTC timestamp)       raw outputs go to bench/.out/render/$NAME (or OUT, absolute)
#   SKIP_STRATA_BUILD=1        do not run `npm run build` here
#   ANCHORS (required)  RENDER_PORT (3205) DATA_PORT (50361)
#   CANDIDATE_EXTRA_ENV        extra VAR=value words put before the render service's command
#   SCRATCH (/tmp/strata-bench-render)  where response samples and server logs are moved
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
ANCHORS="$(cd "${ANCHORS:?ANCHORS must name the benchmark anchors directory (bench/anchors/README.md)}" && pwd)"
NAME="${NAME:-$(date -u +%Y-%m-%dT%H-%M)}"
OUT="${OUT:-$HERE/../.out/render/$NAME}"
RENDER_PORT="${RENDER_PORT:-3205}"
DATA_PORT="${DATA_PORT:-50361}"
export ROUNDS="${ROUNDS:-3}" DURATION="${DURATION:-10}" WARMUP="${WARMUP:-3}" CONNECTIONS="${CONNECTIONS:-50}"
started=$(date +%s)
say() { printf '[bench/render %3ss] %s\n' "$(($(date +%s) - started))" "$*"; }
mkdir -p "$OUT"

say "strata $(git -C "$REPO" rev-parse --short HEAD) ($(git -C "$REPO" status --porcelain --untracked-files=no | wc -l) modified tracked files), node $(node -v), $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg)"

# The build is of the working tree (others edit it concurrently): record what it was.
{ echo "HEAD $(git -C "$REPO" rev-parse HEAD)"; echo "git status --porcelain (at build time):"; git -C "$REPO" status --porcelain; } >"$OUT/strata-tree.txt"

# 1. Build Strata (TypeScript + the client bundle).
if [ "${SKIP_STRATA_BUILD:-0}" != 1 ]; then
  say "npm run build (log: $OUT/strata-build.log)"
  if ! (cd "$REPO" && npm run build) >"$OUT/strata-build.log" 2>&1; then tail -30 "$OUT/strata-build.log"; exit 1; fi
fi
for f in services/data/dist/main.js services/render/dist/main.js; do
  [ -f "$REPO/$f" ] || { echo "missing $REPO/$f: build first" >&2; exit 1; }
done

# 2. No cache in front of the data service. Since 54ef590 the render service caches segment
#    payloads by default (SEGMENT_CACHE=true; in process, or Redis with REDIS_URL): the candidate
#    runs with SEGMENT_CACHE=false and without REDIS_URL. drive.mjs also checks that the data
#    service spends CPU on every candidate request (a cache would leave it idle).
unset REDIS_URL || true
CACHE_OFF="SEGMENT_CACHE=false"
if ! grep -q 'SEGMENT_CACHE' "$REPO/services/render/dist/config.js"; then
  if grep -Eqi 'REDIS|CACHE' "$REPO/services/render/dist/config.js"; then
    echo "the render service has a cache setting other than SEGMENT_CACHE (services/render/src/config.ts):" >&2
    echo "find the switch that disables it, pass it in CANDIDATE_EXTRA_ENV and update this guard" >&2
    exit 1
  fi
  CACHE_OFF=""
fi

# 3. The navigation request /bench/items/1 -> /bench/items (docs/protocol.md, "Page payloads").
TREE='1;bench-root/bench-section/bench-item(p.id=1)'
HASH=$(cd "$REPO" && node -e "import('@strata/web').then(m=>console.log(m.payloadHash({tree:process.argv[1],prefetch:undefined})))" "$TREE")
say "navigation request: GET /bench/items?_p=$HASH, Strata-Tree: $TREE"

# 4. The candidate: only the render service (the data service runs outside its process group).
export CANDIDATE_CWD="$REPO"
export CANDIDATE_CMD="${CANDIDATE_EXTRA_ENV:+$CANDIDATE_EXTRA_ENV }${CACHE_OFF:+$CACHE_OFF }RENDER_PORT=$RENDER_PORT RENDER_HOST=127.0.0.1 DATA_SERVICE_ADDRESS=127.0.0.1:$DATA_PORT ACTION_SALT=bench-salt-123 RENDER_APP=@strata/app-bench STRATA_ALLOW_DEVELOPMENT_SECRETS=true LOG_LEVEL=warn exec node --no-memory-reducer --min-semi-space-size=64 --max-semi-space-size=64 services/render/dist/main.js"
export CANDIDATE_URL="http://127.0.0.1:$RENDER_PORT"
export CANDIDATE_NAV_PATH="/bench/items?_p=$HASH"
export CANDIDATE_NAV_HEADERS="{\"Strata-Payload\":\"1\",\"Strata-Tree\":\"$TREE\"}"
export OUT ANCHORS DATA_PORT STRATA_ROOT="$REPO"

# 5. Data service up -> anchors' run.sh -> data service down -> data CPU per request, goals.
node "$HERE/lib/drive.mjs"

# 6. Response samples and server logs (several MB of logs when clients disconnect mid-request;
#    the .html samples would also trip `prettier --check .`) move out of the repository.
SCRATCH="${SCRATCH:-/tmp/strata-bench-render}/$(basename "$OUT")"
rm -rf "$SCRATCH" && mkdir -p "$SCRATCH"
for d in samples logs; do if [ -d "$OUT/$d" ]; then mv "$OUT/$d" "$SCRATCH/"; fi; done
say "samples and server logs: $SCRATCH"

# 7. Keep the committed JSON in the repository's formatting (prettier checks *.json).
if [ -x "$REPO/node_modules/.bin/prettier" ]; then
  "$REPO/node_modules/.bin/prettier" --write --log-level warn "$OUT"/*.json || true
fi
say "done in $(($(date +%s) - started)) s: $OUT/{table.md,goals.md,results.json,data-cpu.json}"
