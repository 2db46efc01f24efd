#!/usr/bin/env bash
# A soak: one gateway on its launcher's own JVM settings (the default heap), with a master key,
# a virtual key made through /key/generate and the embedded store, held under mixed traffic at a
# fixed, moderate rate for DURATION seconds (default 3600) while its resident memory is sampled
# every SAMPLE_S seconds (default 60). The traffic (bench/soak.py): chat completions plain and
# streamed (from a fast and a slow upstream), /v1/messages plain and streamed, /v1/responses,
# embeddings, a group whose second deployment always fails, a model whose only deployment always
# fails, unknown models, bad keys, malformed JSON, /metrics and /health/liveliness scrapes.
# Writes the samples to bench/last-soak.csv, the gateway's log to bench/last-soak.log, and a
# Markdown summary to stdout and bench/last-soak.md. Exits non-zero if any answer was unexpected.
#
# Usage: bench/soak.sh           (DURATION=3600 RATE=30 SAMPLE_S=60 to change the defaults)
set -euo pipefail
cd "$(dirname "$0")/.."

DURATION=${DURATION:-3600}
RATE=${RATE:-30}
SAMPLE_S=${SAMPLE_S:-60}
WORK=$(mktemp -d /tmp/sluice-soak.XXXXXX)
PIDS=()
cleanup() {
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  [ -f "$WORK/sluice.log" ] && cp "$WORK/sluice.log" bench/last-soak.log
  rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

. .mvn/find-jdk.sh
JAVA="$JAVA_HOME/bin/java"
[ -f target/sluice.jar ] || ./mvnw -q -DskipTests package
. bench/lib.sh

start_mock() { # name mode [flags...] -> port; the mocks are small JVMs so they leave the cores to the gateway
  local port; port=$(free_port)
  "$JAVA" -Xmx64m -XX:+UseSerialGC -jar target/sluice.jar mock --port "$port" --name "$1" --mode "$2" "${@:3}" \
    >"$WORK/mock-$1.log" 2>&1 &
  PIDS+=($!)
  wait_for "http://127.0.0.1:$port/v1/models"
  echo "$port"
}
OK_UP=$(start_mock ok ok)
SLOW_UP=$(start_mock slow slow --delay-ms 500)
FAIL_UP=$(start_mock fail fail)

deployment() { # group port -> one model_list entry
  echo "  - model_name: $1"
  echo "    litellm_params: {model: openai/$1-model, api_base: \"http://127.0.0.1:$2/v1\", api_key: bench}"
}
{
  echo "model_list:"
  deployment bench "$OK_UP"
  deployment slow "$SLOW_UP"
  deployment flaky "$OK_UP"
  deployment flaky "$FAIL_UP"
  deployment broken "$FAIL_UP"
  echo "general_settings: {master_key: sk-bench, store_path: \"$WORK/store/sluice\"}"
} >"$WORK/sluice.yaml"

PORT=$(free_port)
"$JAVA" -jar target/sluice.jar --config "$WORK/sluice.yaml" --port "$PORT" --host 127.0.0.1 >"$WORK/sluice.log" 2>&1 &
LAUNCHER=$!
PIDS+=($LAUNCHER)
wait_for "http://127.0.0.1:$PORT/health/liveliness"
SERVING=$(pgrep -P "$LAUNCHER" java || echo "$LAUNCHER")  # the launcher may hand over to a child JVM
VKEY=$(curl -sf -H 'Authorization: Bearer sk-bench' -H 'Content-Type: application/json' \
    -d '{"max_budget":1000000}' "http://127.0.0.1:$PORT/key/generate" \
  | python3 -c 'import json, sys; print(json.load(sys.stdin)["key"])')

echo "soak: ${DURATION}s at ${RATE}/s against pid $SERVING on port $PORT, samples in bench/last-soak.csv" >&2
summary=$(python3 bench/soak.py 127.0.0.1 "$PORT" sk-bench "$VKEY" "$SERVING" "$DURATION" "$RATE" "$SAMPLE_S" \
  bench/last-soak.csv) && clean=yes || clean=no
{
  echo "## Soak run of $(date -u +%Y-%m-%d) on $(nproc) cores ($(uname -m)), $("$JAVA" -version 2>&1 | head -1)"
  echo
  echo "Command: \`bench/soak.sh\` (DURATION=$DURATION, RATE=$RATE, SAMPLE_S=$SAMPLE_S; the launcher's JVM settings; process tree: $(echo "$LAUNCHER $(pgrep -P "$LAUNCHER" || true)" | wc -w) process(es))"
  echo
  echo "$summary"
  echo
  echo "- every answer as expected: $clean"
  echo "- gateway log: $(grep -c . "$WORK/sluice.log" || true) lines, $(grep -c 'WARN' "$WORK/sluice.log" || true) WARN, $(grep -c 'ERROR' "$WORK/sluice.log" || true) ERROR"
} | tee bench/last-soak.md
[ "$clean" = yes ]
