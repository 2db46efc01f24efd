# Sourced by ./mvnw: makes sure Maven runs on a JDK of release 21 or newer.
# Keeps JAVA_HOME when it already points at one; otherwise takes the java on PATH
# if it is new enough, else the newest JDK >= 21 found in the usual install folders.

sluice_jdk_major() {
  # Prints the feature release of the JDK at $1 (e.g. 25), or nothing.
  if [ -f "$1/release" ]; then
    sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$1/release" | head -n 1
  elif [ -x "$1/bin/java" ]; then
    "$1/bin/java" -version 2>&1 | sed -n 's/.*version "\([0-9]*\).*/\1/p' | head -n 1
  fi
}

sluice_jdk_ok() {
  [ -x "$1/bin/javac" ] || return 1
  major=$(sluice_jdk_major "$1")
  [ -n "$major" ] && [ "$major" -ge 21 ]
}

if [ -z "${JAVA_HOME-}" ] || ! sluice_jdk_ok "$JAVA_HOME"; then
  sluice_found=""
  sluice_path_javac=$(command -v javac 2>/dev/null || true)
  if [ -n "$sluice_path_javac" ]; then
    sluice_candidate=$(dirname "$(dirname "$(readlink -f "$sluice_path_javac")")")
    if sluice_jdk_ok "$sluice_candidate"; then sluice_found=$sluice_candidate; fi
  fi
  if [ -z "$sluice_found" ]; then
    sluice_best=0
    set +f  # mvnw runs with globbing off
    for sluice_candidate in /usr/lib/jvm/* /opt/java/* /opt/jdk* /usr/local/lib/jvm/* "$HOME"/.sdkman/candidates/java/* "$HOME"/.jdks/*; do
      [ -d "$sluice_candidate" ] || continue
      if sluice_jdk_ok "$sluice_candidate"; then
        major=$(sluice_jdk_major "$sluice_candidate")
        if [ "$major" -gt "$sluice_best" ]; then sluice_best=$major; sluice_found=$sluice_candidate; fi
      fi
    done
    set -f
  fi
  if [ -n "$sluice_found" ]; then
    JAVA_HOME=$sluice_found
    export JAVA_HOME
  else
    echo "Sluice needs a JDK of release 21 or newer; none was found. Set JAVA_HOME to one." >&2
    exit 1
  fi
fi
