#!/usr/bin/env bash
# Peak memory under many open streams: ROUNDS rounds (default 3) of STREAMS (default 1000)
# concurrent streamed chat completions, each relayed from a slow upstream (the mock's `slow`
# mode: DELAY_MS before its first event, DELAY_MS/10 between the next), through a gateway
# with a master key and the embedded store. Reports every stream's completion and the peak
# resident memory (VmHWM) of the gateway's whole process tree, the launcher's JVM included
# when it hands over to another. Prints a Markdown report (also written to bench/last-streams.md).
#
# Usage: bench/streams.sh        (STREAMS=1000 ROUNDS=3 DELAY_MS=2000 to change the defaults)
set -euo pipefail
cd "$(dirname "$0")/.."

STREAMS=${STREAMS:-1000}
ROUNDS=${ROUNDS:-3}
DELAY_MS=${DELAY_MS:-2000}
WORK=$(mktemp -d /tmp/sluice-streams.XXXXXX)
PIDS=()
cleanup() {
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$WORK"
}
trap cleanup EXIT

. .mvn/find-jdk.sh
JAVA="$JAVA_HOME/bin/java"
[ -f target/sluice.jar ] || ./mvnw -q -DskipTests package
. bench/lib.sh
ulimit -n 65536 2>/dev/null || true

UP=$(free_port); SL=$(free_port)
"$JAVA" -jar target/sluice.jar mock --port "$UP" --name streams --mode slow --delay-ms "$DELAY_MS" >"$WORK/mock.log" 2>&1 &
PIDS+=($!)
wait_for "http://127.0.0.1:$UP/v1/models"
cat >"$WORK/sluice.yaml" <<YAML
model_list:
  - model_name: bench
    litellm_params: {model: openai/bench-model, api_base: "http://127.0.0.1:$UP/v1", api_key: bench}
general_settings: {master_key: sk-bench, store_path: "$WORK/store/sluice"}
YAML
"$JAVA" -jar target/sluice.jar --config "$WORK/sluice.yaml" --port "$SL" --host 127.0.0.1 >"$WORK/sluice.log" 2>&1 &
SLUICE=$!
PIDS+=($SLUICE)
wait_for "http://127.0.0.1:$SL/health/liveliness"
TREE="$SLUICE $(pgrep -P "$SLUICE" || true)"
idle_kb=0; for pid in $TREE; do idle_kb=$((idle_kb + $(awk '/VmRSS/ {print $2}' "/proc/$pid/status"))); done

rounds=$(python3 bench/streams.py 127.0.0.1 "$SL" sk-bench "$STREAMS" "$ROUNDS") && complete=yes || complete=no
peak_kb=0; after_kb=0
for pid in $TREE; do
  peak_kb=$((peak_kb + $(awk '/VmHWM/ {print $2}' "/proc/$pid/status")))
  after_kb=$((after_kb + $(awk '/VmRSS/ {print $2}' "/proc/$pid/status")))
done
{
  echo "## Streams run of $(date -u +%Y-%m-%d) on $(nproc) cores ($(uname -m)), $("$JAVA" -version 2>&1 | head -1)"
  echo
  echo "Command: \`bench/streams.sh\` (STREAMS=$STREAMS, ROUNDS=$ROUNDS, DELAY_MS=$DELAY_MS; a gateway with a master key and the embedded store, its process tree: $(echo $TREE | wc -w) process(es))"
  echo
  echo "$rounds" | sed 's/^/- /'
  echo "- every stream complete: $complete"
  echo "- resident memory of the gateway's process tree: $((idle_kb / 1024)) MB idle before the rounds, $((peak_kb / 1024)) MB at its peak, $((after_kb / 1024)) MB after them"
} | tee bench/last-streams.md
