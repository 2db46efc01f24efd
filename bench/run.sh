#!/usr/bin/env bash
# Sluice's one-hop overhead, measured in one run on this machine:
#   wrk -> fast upstream                      (direct)
#   wrk -> nginx proxy_pass keepalive -> up   (the floor for one HTTP hop)
#   wrk -> Sluice -> up                       (sluice: no master key, so no keys and no store: the open path)
#   wrk -> Sluice -> up                       (sluice-key: a virtual key with a budget, its spend
#                                              rows written to the embedded H2 store)
#   wrk -> Sluice -> up                       (sluice-key-pg: the same on PostgreSQL, when one answers
#                                              at PGHOST:PGPORT, default 127.0.0.1:5432, database PGDATABASE
#                                              (default test), in a schema of its own dropped afterwards)
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
  if declare -F drop_schema >/dev/null; then drop_schema; fi
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

UP=$(free_port); NGX=$(free_port)

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
PGHOST=${PGHOST:-127.0.0.1}; PGPORT=${PGPORT:-5432}; PGDATABASE=${PGDATABASE:-test}; PGUSER=${PGUSER:-postgres}
PG_SCHEMA="sluice_bench_$$"
keyed_config() { # store setting -> a config with the master key and that store
  cat <<YAML
model_list:
  - model_name: bench
    litellm_params: {model: openai/bench-model, api_base: "http://127.0.0.1:$UP/v1", api_key: bench}
general_settings: {master_key: sk-bench, $1}
YAML
}
keyed_config "store_path: \"$WORK/store/sluice\"" >"$WORK/sluice-key.yaml"
TARGETS=(direct nginx sluice sluice-key)
if psql -h "$PGHOST" -p "$PGPORT" -U "$PGUSER" -d "$PGDATABASE" -qc "CREATE SCHEMA $PG_SCHEMA" >/dev/null 2>&1; then
  keyed_config "database_url: \"postgresql://$PGUSER@$PGHOST:$PGPORT/$PGDATABASE?schema=$PG_SCHEMA\"" >"$WORK/sluice-key-pg.yaml"
  TARGETS+=(sluice-key-pg)
  drop_schema() { psql -h "$PGHOST" -p "$PGPORT" -U "$PGUSER" -d "$PGDATABASE" -qc "DROP SCHEMA IF EXISTS $PG_SCHEMA CASCADE" >/dev/null 2>&1 || true; }
else
  echo "no PostgreSQL at $PGHOST:$PGPORT: the sluice-key-pg row is left out" >&2
  drop_schema() { :; }
fi
JSON_BODY='{"model":"bench","messages":[{"role":"user","content":"Say something short"}]}'
SSE_BODY='{"model":"bench","stream":true,"messages":[{"role":"user","content":"Say something short"}]}'

declare -A PORT JAVA_PID KEY FIRST_MS
start_sluice() { # target config -> started, answering, with its port, JVM pid and first-answer time recorded
  local port started pid
  port=$(free_port)
  started=$(date +%s%N)
  "$JAVA" -jar target/sluice.jar --config "$2" --port "$port" --host 127.0.0.1 >"$WORK/$1.log" 2>&1 &
  pid=$!
  PIDS+=("$pid")
  until curl -sf -o /dev/null -H 'Authorization: Bearer sk-bench' -H 'Content-Type: application/json' \
      -d "$JSON_BODY" "http://127.0.0.1:$port/v1/chat/completions"; do sleep 0.01; done
  FIRST_MS[$1]=$(( ($(date +%s%N) - started) / 1000000 ))
  PORT[$1]=$port
  JAVA_PID[$1]=$(pgrep -P "$pid" java || echo "$pid")  # the launcher may hand over to a child JVM
}
virtual_key() { # port -> a new virtual key for the bench group, with a budget it will not reach
  curl -sf -H 'Authorization: Bearer sk-bench' -H 'Content-Type: application/json' \
      -d '{"models":["bench"],"max_budget":1000000}' "http://127.0.0.1:$1/key/generate" \
    | python3 -c 'import json, sys; print(json.load(sys.stdin)["key"])'
}

PORT[direct]=$UP; PORT[nginx]=$NGX
KEY[direct]=none; KEY[nginx]=none; KEY[sluice]=none
start_sluice sluice "$WORK/sluice.yaml"
for target in "${TARGETS[@]}"; do
  case $target in
    sluice-key*) start_sluice "$target" "$WORK/$target.yaml"; KEY[$target]=$(virtual_key "${PORT[$target]}") ;;
  esac
done

# Warm-up: long enough for the JIT to compile and settle the hot paths of every hop before measuring.
for target in "${TARGETS[@]}"; do
  url="http://127.0.0.1:${PORT[$target]}/v1/chat/completions"
  BENCH_KEY=${KEY[$target]} DURATION=${WARMUP:-15s} run_wrk 2 "$CONNECTIONS" "$url" "$JSON_BODY" >/dev/null
  BENCH_KEY=${KEY[$target]} DURATION=${WARMUP_SSE:-8s} run_wrk 2 "$CONNECTIONS" "$url" "$SSE_BODY" >/dev/null
done

declare -A P50 P99 RPS CPU ERR
for kind in json sse; do
  body=$JSON_BODY; [ "$kind" = sse ] && body=$SSE_BODY
  for target in "${TARGETS[@]}"; do
    case $target in
      direct) pids="" ;;
      nginx) pids=$NGINX_PIDS ;;
      *) pids=${JAVA_PID[$target]} ;;
    esac
    url="http://127.0.0.1:${PORT[$target]}/v1/chat/completions"
    one=$(BENCH_KEY=${KEY[$target]} run_wrk 1 1 "$url" "$body")
    P50[$target.$kind]=$(to_us "$(echo "$one" | pct 50)")
    P99[$target.$kind]=$(to_us "$(echo "$one" | pct 99)")
    before=0; [ -n "$pids" ] && before=$(cpu_ticks $pids)
    many=$(BENCH_KEY=${KEY[$target]} run_wrk 2 "$CONNECTIONS" "$url" "$body")
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
declare -A RSS
for target in "${TARGETS[@]}"; do
  case $target in sluice*) RSS[$target]=$(awk '/VmRSS/ {printf "%.0f", $2 / 1024}' "/proc/${JAVA_PID[$target]}/status") ;; esac
done
drop_schema

added() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%+.0f", a - b }'; }
share() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.0f %%", 100 * a / b; else print "–" }'; }
times() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f×", a / b; else print "–" }'; }
{
  echo "## Run of $(date -u +%Y-%m-%d) on $(nproc) cores ($(uname -m)), $("$JAVA" -version 2>&1 | head -1)"
  echo
  echo "Command: \`bench/run.sh\` (DURATION=$DURATION, CONNECTIONS=$CONNECTIONS, warm-up ${WARMUP:-15s} JSON and ${WARMUP_SSE:-8s} SSE per path; wrk, the upstream and the proxy share the machine)"
  echo
  for kind in json sse; do
    echo "### ${kind^^}"
    echo
    echo "| path | c=1 p50 µs | c=1 p99 µs | added p50 µs | c=$CONNECTIONS req/s | % of direct | % of nginx | hop CPU µs/req | errors |"
    echo "|---|---|---|---|---|---|---|---|---|"
    for target in "${TARGETS[@]}"; do
      echo "| $target | ${P50[$target.$kind]} | ${P99[$target.$kind]} | $(added "${P50[$target.$kind]}" "${P50[direct.$kind]}") | ${RPS[$target.$kind]} | $(share "${RPS[$target.$kind]}" "${RPS[direct.$kind]}") | $(share "${RPS[$target.$kind]}" "${RPS[nginx.$kind]}") | ${CPU[$target.$kind]} | ${ERR[$target.$kind]} |"
    done
    echo
    for target in "${TARGETS[@]}"; do
      case $target in sluice-key*)
        echo "- $target against the open path: $(share "${RPS[$target.$kind]}" "${RPS[sluice.$kind]}") of its throughput, $(times "${CPU[$target.$kind]}" "${CPU[sluice.$kind]}") its CPU per call, $(times "${P99[$target.$kind]}" "${P99[sluice.$kind]}") its c=1 p99." ;;
      esac
    done
    echo "- the open path against nginx: $(share "${RPS[sluice.$kind]}" "${RPS[nginx.$kind]}") of its throughput, $(times "${CPU[sluice.$kind]}" "${CPU[nginx.$kind]}") its CPU per call."
    echo
  done
  echo -n "RSS after load:"
  for target in "${TARGETS[@]}"; do case $target in sluice*) echo -n " $target ${RSS[$target]} MB;" ;; esac; done
  echo -n " start to first answered request:"
  for target in "${TARGETS[@]}"; do case $target in sluice*) echo -n " $target ${FIRST_MS[$target]} ms;" ;; esac; done
  echo
} | tee bench/last-run.md
