#!/usr/bin/env bash
# What sharing router state through Redis adds per request, measured in one run on this
# machine against the local Redis (127.0.0.1:6379): four gateways in front of one fast
# upstream, JSON calls only.
#   claim        usage-based-routing-v2 over a deployment with an rpm: each attempt claims its
#                place in the deployment's minute, in process
#   claim+redis  the same, the claim made by a script in Redis
#   keys         a virtual key with rpm_limit and tpm_limit (master key, embedded H2 store):
#                each call is admitted by the key's limits, in process
#   keys+redis   the same, admitted by a script in Redis
# p50/p99 at 1 connection, throughput at 64, Sluice's CPU time per request and Redis's.
# Prints a Markdown report (also written to bench/last-redis-run.md).
#
# Usage: bench/redis.sh            (DURATION=10s CONNECTIONS=64 to change the defaults)
set -euo pipefail
cd "$(dirname "$0")/.."

DURATION=${DURATION:-10s}
CONNECTIONS=${CONNECTIONS:-64}
WORK=$(mktemp -d /tmp/sluice-redis-bench.XXXXXX)
PREFIX="bench-$$-"
PIDS=()
cleanup() {
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  redis-cli --scan --pattern "$PREFIX*" 2>/dev/null | xargs -r redis-cli del >/dev/null 2>&1 || true
  rm -rf "$WORK"
}
trap cleanup EXIT

if ! command -v wrk >/dev/null; then
  echo "installing wrk from Debian's packages" >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null
fi
REDIS_PID=$(pgrep -x redis-server | head -1 || true)
[ -n "$REDIS_PID" ] && redis-cli ping >/dev/null || { echo "a Redis on 127.0.0.1:6379 is needed" >&2; exit 1; }

. .mvn/find-jdk.sh
JAVA="$JAVA_HOME/bin/java"
[ -f target/sluice.jar ] || ./mvnw -q -DskipTests package
. bench/lib.sh

UP=$(free_port)
"$JAVA" -jar target/sluice.jar mock --port "$UP" --name bench --mode ok >"$WORK/mock.log" 2>&1 &
PIDS+=($!)
wait_for "http://127.0.0.1:$UP/v1/models"

JSON_BODY='{"model":"bench","messages":[{"role":"user","content":"Say something short"}]}'
REDIS="redis_host: 127.0.0.1, redis_port: 6379, redis_key_prefix: \"$PREFIX\""
config() { # name router_settings general_settings
  cat >"$WORK/$1.yaml" <<YAML
model_list:
  - model_name: bench
    litellm_params: {model: openai/bench-model, api_base: "http://127.0.0.1:$UP/v1", api_key: bench, rpm: 1000000000}
router_settings: {$2}
general_settings: {$3}
YAML
}
config claim "routing_strategy: usage-based-routing-v2" ""
config claim+redis "routing_strategy: usage-based-routing-v2, $REDIS" ""
config keys "" "master_key: sk-bench, store_path: \"$WORK/keys/sluice\""
config keys+redis "$REDIS" "master_key: sk-bench, store_path: \"$WORK/keys-redis/sluice\""

TARGETS=(claim claim+redis keys keys+redis)
declare -A PORT JAVA_PID KEY P50 P99 RPS CPU REDIS_CPU ERR
for target in "${TARGETS[@]}"; do
  PORT[$target]=$(free_port)
  "$JAVA" -jar target/sluice.jar --config "$WORK/$target.yaml" --port "${PORT[$target]}" --host 127.0.0.1 \
      >"$WORK/$target.log" 2>&1 &
  launcher=$!
  PIDS+=($launcher)
  wait_for "http://127.0.0.1:${PORT[$target]}/health/liveliness"
  JAVA_PID[$target]=$(pgrep -P "$launcher" java || echo "$launcher")
  KEY[$target]=sk-bench
  if [[ $target == keys* ]]; then
    KEY[$target]=$(curl -sf -H 'Authorization: Bearer sk-bench' -H 'Content-Type: application/json' \
        -d '{"rpm_limit": 1000000000, "tpm_limit": 1000000000000}' "http://127.0.0.1:${PORT[$target]}/key/generate" \
        | python3 -c 'import json, sys; print(json.load(sys.stdin)["key"])')
  fi
done

url() { echo "http://127.0.0.1:${PORT[$1]}/v1/chat/completions"; }
for target in "${TARGETS[@]}"; do  # warm-up: let the JIT compile each gateway's hot path
  BENCH_KEY=${KEY[$target]} DURATION=8s run_wrk 2 "$CONNECTIONS" "$(url "$target")" "$JSON_BODY" >/dev/null
done
for target in "${TARGETS[@]}"; do
  export BENCH_KEY=${KEY[$target]}
  one=$(run_wrk 1 1 "$(url "$target")" "$JSON_BODY")
  P50[$target]=$(to_us "$(echo "$one" | pct 50)")
  P99[$target]=$(to_us "$(echo "$one" | pct 99)")
  before=$(cpu_ticks "${JAVA_PID[$target]}"); redis_before=$(cpu_ticks "$REDIS_PID")
  many=$(run_wrk 2 "$CONNECTIONS" "$(url "$target")" "$JSON_BODY")
  after=$(cpu_ticks "${JAVA_PID[$target]}"); redis_after=$(cpu_ticks "$REDIS_PID")
  requests=$(echo "$many" | awk '/requests in/ {print $1}')
  RPS[$target]=$(echo "$many" | awk '/Requests\/sec/ {printf "%.0f", $2}')
  CPU[$target]=$(awk -v t=$((after - before)) -v hz="$TICKS" -v n="$requests" 'BEGIN { printf "%.1f", t / hz * 1000000 / n }')
  REDIS_CPU[$target]=$(awk -v t=$((redis_after - redis_before)) -v hz="$TICKS" -v n="$requests" 'BEGIN { printf "%.1f", t / hz * 1000000 / n }')
  ERR[$target]=$(( $(echo "$one" | awk '/non2xx_or_error/ {print $2}') + $(echo "$many" | awk '/non2xx_or_error/ {print $2}') ))
done

{
  echo "## Redis run of $(date -u +%Y-%m-%d) on $(nproc) cores ($(uname -m)), $("$JAVA" -version 2>&1 | head -1), Redis $(redis-cli info server | awk -F: '/redis_version/ {print $2}' | tr -d '\r')"
  echo
  echo "Command: \`bench/redis.sh\` (DURATION=$DURATION, CONNECTIONS=$CONNECTIONS; wrk, the upstream, Redis and Sluice share the machine)"
  echo
  echo "| path | c=1 p50 µs | c=1 p99 µs | c=$CONNECTIONS req/s | Sluice CPU µs/req | Redis CPU µs/req | errors |"
  echo "|---|---|---|---|---|---|---|"
  for target in "${TARGETS[@]}"; do
    echo "| $target | ${P50[$target]} | ${P99[$target]} | ${RPS[$target]} | ${CPU[$target]} | ${REDIS_CPU[$target]} | ${ERR[$target]} |"
  done
} | tee bench/last-redis-run.md
