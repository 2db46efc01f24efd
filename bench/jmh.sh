#!/usr/bin/env bash
# One routing decision in a 100-deployment group, measured with JMH: each strategy's pick
# and the pre-call checks (src/jmh/java/dev/sluice/bench/RoutingDecisionBenchmark.java).
# Builds target/benchmarks.jar with the `jmh` Maven profile, runs it, and prints JMH's
# output; the results table is also written to bench/last-jmh.txt.
#
# Usage: bench/jmh.sh                       1 fork, 3 x 1 s warm-up, 5 x 1 s measured
#        bench/jmh.sh -f 3 -i 10            other JMH options instead (bench/jmh.sh -h lists them)
#        JMH_FILTER=preCall bench/jmh.sh    only the benchmarks whose name matches
#
# Other work on the machine moves these figures a lot: run it when nothing else is busy.
set -euo pipefail
cd "$(dirname "$0")/.."

# The same JDK the build uses.
. .mvn/find-jdk.sh
JAVA="$JAVA_HOME/bin/java"

./mvnw -q -Pjmh -Dmaven.test.skip=true package

if [ "$#" -eq 0 ]; then
  set -- -f 1 -wi 3 -w 1s -i 5 -r 1s
fi
MACHINE="$("$JAVA" -version 2>&1 | sed -n 2p); $(nproc) cores ($(uname -m)); load average before the run: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# $MACHINE"
"$JAVA" -jar target/benchmarks.jar "${JMH_FILTER:-RoutingDecisionBenchmark}" "$@" -rf text -rff target/jmh-result.txt
{ echo "# $MACHINE"; echo "# JMH options: $*"; cat target/jmh-result.txt; } > bench/last-jmh.txt
