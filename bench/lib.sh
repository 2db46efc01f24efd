# Helpers shared by the benchmark scripts; sourced, not run.

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'; }
wait_for() { # url
  for _ in $(seq 1 600); do curl -s -o /dev/null "$1" && return 0; sleep 0.05; done
  echo "no answer from $1" >&2; return 1
}
cpu_ticks() { # pids... -> utime+stime summed, in clock ticks
  local total=0
  for pid in "$@"; do
    read -r -a f < "/proc/$pid/stat"
    total=$((total + f[13] + f[14]))
  done
  echo "$total"
}
TICKS=$(getconf CLK_TCK)

run_wrk() { # threads conns url body -> writes wrk output to stdout
  BENCH_BODY="$4" BENCH_KEY="${BENCH_KEY:-sk-bench}" wrk -t"$1" -c"$2" -d"$DURATION" --latency -s bench/post.lua "$3"
}
to_us() { # "83.00us" | "1.20ms" | "1.00s" -> microseconds
  awk -v v="$1" 'BEGIN { n = v + 0; if (v ~ /us$/) print n; else if (v ~ /ms$/) print n * 1000; else if (v ~ /s$/) print n * 1000000; else print n }'
}
pct() { grep -E "^ +$1%" | awk '{print $2}'; }
