#!/usr/bin/env bash
# Two builds of the gateway side by side on the open path (no keys), against one mock
# upstream, measured in alternating rounds so that the machine's drift falls on both alike:
# throughput at 64 connections and the gateway's CPU time per request (from /proc).
#
# Usage: bench/ab.sh OLD_JAR NEW_JAR        (ROUNDS=3 DURATION=10s WARMUP=15s to change them)
#        KEYED=1 bench/ab.sh OLD_JAR NEW_JAR  the keyed path instead: each build with the master
#        key, its own embedded store and a virtual key with a budget it will not reach
#   e.g. git worktree add /tmp/old <commit> && (cd /tmp/old && ./mvnw -q -DskipTests package)
#        bench/ab.sh /tmp/old/target/sluice.jar target/sluice.jar
set -euo pipefail
OLD_JAR=$(realpath "$1"); NEW_JAR=$(realpath "$2")
ROUNDS=${ROUNDS:-3}
DURATION=${DURATION:-10s}
. .mvn/find-jdk.sh
JAVA="$JAVA_HOME/bin/java"
. bench/lib.sh
WORK=$(mktemp -d /tmp/sluice-ab.XXXXXX)
PIDS=()
cleanup() { for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "$WORK"; }
trap cleanup EXIT

UP=$(free_port); A=$(free_port); B=$(free_port)
"$JAVA" -jar "$OLD_JAR" mock --port "$UP" --name bench --mode ok >"$WORK/mock.log" 2>&1 & PIDS+=($!)
wait_for "http://127.0.0.1:$UP/v1/models"
cat >"$WORK/config.yaml" <<YAML
model_list:
  - model_name: bench
    litellm_params: {model: openai/bench, api_base: "http://127.0.0.1:$UP/v1", api_key: sk-bench-upstream}
YAML
for build in old new; do
  cp "$WORK/config.yaml" "$WORK/$build.yaml"
  if [ -n "${KEYED:-}" ]; then
    echo "general_settings: {master_key: sk-bench, store_path: \"$WORK/$build-store/sluice\"}" >>"$WORK/$build.yaml"
  fi
done
"$JAVA" -jar "$OLD_JAR" --config "$WORK/old.yaml" --port "$A" >"$WORK/old.log" 2>&1 & PIDS+=($!)
"$JAVA" -jar "$NEW_JAR" --config "$WORK/new.yaml" --port "$B" >"$WORK/new.log" 2>&1 & PIDS+=($!)
wait_for "http://127.0.0.1:$A/health/liveliness"
wait_for "http://127.0.0.1:$B/health/liveliness"
declare -A KEY=([old]=none [new]=none)
if [ -n "${KEYED:-}" ]; then
  for build in old new; do
    port=$A; [ "$build" = new ] && port=$B
    KEY[$build]=$(curl -sf -H 'Authorization: Bearer sk-bench' -H 'Content-Type: application/json' \
        -d '{"models":["bench"],"max_budget":1000000}' "http://127.0.0.1:$port/key/generate" \
      | python3 -c 'import json, sys; print(json.load(sys.stdin)["key"])')
  done
fi
BODY='{"model":"bench","messages":[{"role":"user","content":"hello"}]}'
for build in old new; do
  port=$A; [ "$build" = new ] && port=$B
  BENCH_KEY=${KEY[$build]} DURATION=${WARMUP:-15s} run_wrk 2 64 "http://127.0.0.1:$port/v1/chat/completions" "$BODY" >/dev/null
done

echo "| round | build | req/s | CPU µs/req | errors |"
echo "|---|---|---|---|---|"
for round in $(seq 1 "$ROUNDS"); do
  for build in old new; do
    port=$A; [ "$build" = new ] && port=$B
    # The launcher and the JVM it hands over to both name the port.
    pids=$(pgrep -f -- "--port $port" | tr '\n' ' ')
    before=$(cpu_ticks $pids)
    out=$(BENCH_KEY=${KEY[$build]} run_wrk 2 64 "http://127.0.0.1:$port/v1/chat/completions" "$BODY")
    after=$(cpu_ticks $pids)
    rps=$(echo "$out" | awk '/Requests\/sec/ {print $2}')
    requests=$(echo "$out" | awk '/requests in/ {print $1}')
    echo "| $round | $build | $rps | $(awk -v t=$((after - before)) -v n="$requests" -v hz="$TICKS" 'BEGIN { printf "%.1f", t * 1e6 / hz / n }') | $(echo "$out" | awk '/non2xx_or_error/ {print $2}') |"
  done
done
