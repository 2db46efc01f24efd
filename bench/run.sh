#!/usr/bin/env bash
# Sluice's one-hop overhead, measured in one run on this machine:
#   wrk -> fast upstream                      (direct)
#   wrk -> nginx proxy_pass keepalive -> up   (the floor for one HTTP hop)
#   wrk -> Sluice -> up                       (sluice: no master key, so no keys and no store)
#   wrk -> Sluice -> up                       (sluice-keys: the master key, and each call's spend
#                                              row written to the embedded H2 store)
# for JSON and for SSE: p50/p99 at 1 connection, throughput at 64 connections, the hop's
# CPU time per request (from /proc), Sluice's RSS after load and its time from start to
# the first answered request. Prints a Markdown report (also written to bench/last-run.md).
#
# Usage: bench/run.sh            (DURATION=10s CONNECTIONS=64 to change the defaults)
set -euo pipefail
cd "$(dirname "$0")/.."

DURATION=${DURATION:-10s}
CONNECTIONS=${CONNECTIONS:-64}
WORK=$(mktemp -d /tmp/sluice-bench.XXXXXX)
PIDS=()
cleanup() {
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  [ -f "$WORK/nginx.pid" ] && kill "$(cat "$WORK/nginx.pid")" 2>/dev/null || true
  wait 2>/dev/null || true
  rm -rf "$WORK"
}
trap cleanup EXIT

need() { command -v "$1" >/dev/null 2>&1; }
if ! need wrk || ! need nginx; then
  echo "installing wrk and nginx from Debian's packages" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq && apt-get install -y -qq wrk nginx-light >/dev/null
  service nginx stop >/dev/null 2>&1 || true
fi

# The same JDK the build uses.
. .mvn/find-jdk.sh
JAVA="$JAVA_HOME/bin/java"
[ -f target/sluice.jar ] || ./mvnw -q -DskipTests package

. bench/lib.sh

UP=$(free_port); NGX=$(free_port); SL=$(free_port); SLK=$(free_port)

"$JAVA" -jar target/sluice.jar mock --port "$UP" --name bench --mode ok >"$WORK/mock.log" 2>&1 &
PIDS+=($!)
wait_for "http://127.0.0.1:$UP/v1/models"

cat >"$WORK/nginx.conf" <<NGINX
worker_processes auto;
pid $WORK/nginx.pid;
error_log $WORK/nginx-error.log warn;
events { worker_connections 4096; }
http {
  access_log off;
  client_body_temp_path $WORK/body;
  proxy_temp_path $WORK/proxy;
  upstream up { server 127.0.0.1:$UP; keepalive 256; }
  server {
    listen 127.0.0.1:$NGX;
    location / {
      proxy_pass http://up;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_buffering off;
    }
  }
}
NGINX
nginx -c "$WORK/nginx.conf"
wait_for "http://127.0.0.1:$NGX/v1/models"
NGINX_PIDS=$(pgrep -f "nginx: " | tr '\n' ' ')

cat >"$WORK/sluice.yaml" <<YAML
model_list:
  - model_name: bench
    litellm_params: {model: openai/bench-model, api_base: "http://127.0.0.1:$UP/v1", api_key: bench}
YAML
cat >"$WORK/sluice-keys.yaml" <<YAML
model_list:
  - model_name: bench
    litellm_params: {model: openai/bench-model, api_base: "http://127.0.0.1:$UP/v1", api_key: bench}
general_settings: {master_key: sk-bench, store_path: "$WORK/store/sluice"}
YAML
JSON_BODY='{"model":"bench","messages":[{"role":"user","content":"Say something short"}]}'
SSE_BODY='{"model":"bench","stream":true,"messages":[{"role":"user","content":"Say something short"}]}'

started=$(date +%s%N)
"$JAVA" -jar target/sluice.jar --config "$WORK/sluice.yaml" --port "$SL" --host 127.0.0.1 >"$WORK/sluice.log" 2>&1 &
SLUICE=$!
PIDS+=($SLUICE)
until curl -sf -o /dev/null -H 'Authorization: Bearer sk-bench' -H 'Content-Type: application/json' \
    -d "$JSON_BODY" "http://127.0.0.1:$SL/v1/chat/completions"; do sleep 0.01; done
first_answer_ms=$(( ($(date +%s%N) - started) / 1000000 ))
SLUICE_JAVA=$(pgrep -P "$SLUICE" java || echo "$SLUICE")  # the launcher may hand over to a child JVM

started=$(date +%s%N)
"$JAVA" -jar target/sluice.jar --config "$WORK/sluice-keys.yaml" --port "$SLK" --host 127.0.0.1 >"$WORK/sluice-keys.log" 2>&1 &
SLUICE_KEYS=$!
PIDS+=($SLUICE_KEYS)
until curl -sf -o /dev/null -H 'Authorization: Bearer sk-bench' -H 'Content-Type: application/json' \
    -d "$JSON_BODY" "http://127.0.0.1:$SLK/v1/chat/completions"; do sleep 0.01; done
first_answer_keys_ms=$(( ($(date +%s%N) - started) / 1000000 ))
SLUICE_KEYS_JAVA=$(pgrep -P "$SLUICE_KEYS" java || echo "$SLUICE_KEYS")


# Warm-up: let the JIT compile the hot paths of every hop before measuring.
for url in "http://127.0.0.1:$UP" "http://127.0.0.1:$NGX" "http://127.0.0.1:$SL" "http://127.0.0.1:$SLK"; do
  DURATION=8s run_wrk 2 "$CONNECTIONS" "$url/v1/chat/completions" "$JSON_BODY" >/dev/null
  DURATION=4s run_wrk 2 "$CONNECTIONS" "$url/v1/chat/completions" "$SSE_BODY" >/dev/null
done

declare -A P50 P99 RPS CPU ERR
for kind in json sse; do
  body=$JSON_BODY; [ "$kind" = sse ] && body=$SSE_BODY
  for target in direct nginx sluice sluice-keys; do
    case $target in
      direct) port=$UP; pids="" ;;
      nginx) port=$NGX; pids=$NGINX_PIDS ;;
      sluice) port=$SL; pids=$SLUICE_JAVA ;;
      sluice-keys) port=$SLK; pids=$SLUICE_KEYS_JAVA ;;
    esac
    url="http://127.0.0.1:$port/v1/chat/completions"
    one=$(run_wrk 1 1 "$url" "$body")
    P50[$target.$kind]=$(to_us "$(echo "$one" | pct 50)")
    P99[$target.$kind]=$(to_us "$(echo "$one" | pct 99)")
    before=0; [ -n "$pids" ] && before=$(cpu_ticks $pids)
    many=$(run_wrk 2 "$CONNECTIONS" "$url" "$body")
    after=0; [ -n "$pids" ] && after=$(cpu_ticks $pids)
    requests=$(echo "$many" | awk '/requests in/ {print $1}')
    RPS[$target.$kind]=$(echo "$many" | awk '/Requests\/sec/ {printf "%.0f", $2}')
    ERR[$target.$kind]=$(( $(echo "$one" | awk '/non2xx_or_error/ {print $2}') + $(echo "$many" | awk '/non2xx_or_error/ {print $2}') ))
    if [ -n "$pids" ]; then
      CPU[$target.$kind]=$(awk -v t=$((after - before)) -v hz="$TICKS" -v n="$requests" 'BEGIN { printf "%.1f", t / hz * 1000000 / n }')
    else
      CPU[$target.$kind]="–"
    fi
  done
done
rss_mb=$(awk '/VmRSS/ {printf "%.0f", $2 / 1024}' "/proc/$SLUICE_JAVA/status")
rss_keys_mb=$(awk '/VmRSS/ {printf "%.0f", $2 / 1024}' "/proc/$SLUICE_KEYS_JAVA/status")

added() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%+.0f", a - b }'; }
share() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.0f %%", 100 * a / b; else print "–" }'; }
{
  echo "## Run of $(date -u +%Y-%m-%d) on $(nproc) cores ($(uname -m)), $("$JAVA" -version 2>&1 | head -1)"
  echo
  echo "Command: \`bench/run.sh\` (DURATION=$DURATION, CONNECTIONS=$CONNECTIONS; wrk, the upstream and the proxy share the machine)"
  echo
  for kind in json sse; do
    echo "### ${kind^^}"
    echo
    echo "| path | c=1 p50 µs | c=1 p99 µs | added p50 µs | c=$CONNECTIONS req/s | % of direct | % of nginx | hop CPU µs/req | errors |"
    echo "|---|---|---|---|---|---|---|---|---|"
    for target in direct nginx sluice sluice-keys; do
      echo "| $target | ${P50[$target.$kind]} | ${P99[$target.$kind]} | $(added "${P50[$target.$kind]}" "${P50[direct.$kind]}") | ${RPS[$target.$kind]} | $(share "${RPS[$target.$kind]}" "${RPS[direct.$kind]}") | $(share "${RPS[$target.$kind]}" "${RPS[nginx.$kind]}") | ${CPU[$target.$kind]} | ${ERR[$target.$kind]} |"
    done
    echo
  done
  echo "Sluice RSS after load: ${rss_mb} MB (sluice-keys: ${rss_keys_mb} MB). Start to first answered request: ${first_answer_ms} ms (sluice-keys: ${first_answer_keys_ms} ms)."
} | tee bench/last-run.md
