#!/usr/bin/env bash
# The whole suite, RUNS times in a row (default 3), on a fresh clone of this repository's HEAD, while
# two CPU-bound processes run beside it (the machine has 2 cores): the load check of docs/testing.md.
# Run 1 is `.ci/run` (npm ci + npm test), the others `npm test`; stops at the first failing run.
# Logs: $OUT/run<N>.log (default OUT=/tmp/silo-under-load).
set -u
RUNS=${RUNS:-3}
OUT=${OUT:-/tmp/silo-under-load}
REPO=$(git -C "$(dirname "$0")/.." rev-parse --show-toplevel)
rm -rf "$OUT" && mkdir -p "$OUT"
git clone -q "$REPO" "$OUT/clone" && cd "$OUT/clone" || exit 1
echo "commit $(git log --oneline -1)"
yes >/dev/null & Y1=$!
yes >/dev/null & Y2=$!
trap 'kill $Y1 $Y2' EXIT
for i in $(seq 1 "$RUNS"); do
  start=$(date +%s)
  if [ "$i" = 1 ]; then CI=true bash .ci/run >"$OUT/run$i.log" 2>&1; else CI=true npm test >"$OUT/run$i.log" 2>&1; fi
  rc=$?
  echo "run $i: exit $rc, $(($(date +%s) - start)) s, load $(cut -d' ' -f1-3 /proc/loadavg)"
  [ "$rc" = 0 ] || exit "$rc"
done
